import InMemoryRelay
import NIOCore
import NIOWebSocket
import Nostr
import Synchronization

/// The relay shared by every connection, and the channels its answers go to.
///
/// Every answer written to a connection is counted until the socket has taken it: a client that
/// stops reading cannot make the server buffer without end. Past `maximumPendingBytes` the
/// connection is closed (a relay that drops slow consumers, as public relays do).
final class RelayHub: Sendable {
    private struct State {
        var relay: Relay
        var channels: [ConnectionID: any Channel] = [:]
        /// Bytes written to each connection and not yet taken by its socket.
        var pending: [ConnectionID: Int] = [:]
        var nextConnection: UInt64 = 1
        /// Lane orders (`LaneOrder`) each connection gave for its next EVENT with the order's id.
        var orders: [ConnectionID: [String: LaneOrder]] = [:]
    }

    private let state: Mutex<State>
    private let clock: @Sendable () -> UInt64
    let maximumPendingBytes: Int
    /// Whether the real-network lane's orders are taken (`relay --lane-orders`); off, an order frame
    /// reaches the relay as any unknown verb does.
    let acceptsLaneOrders: Bool

    init(relay: Relay, maximumPendingBytes: Int, acceptsLaneOrders: Bool = false, clock: @escaping @Sendable () -> UInt64) {
        state = Mutex(State(relay: relay))
        self.maximumPendingBytes = maximumPendingBytes
        self.acceptsLaneOrders = acceptsLaneOrders
        self.clock = clock
    }

    /// The relay's policy, for the NIP-11 document.
    var policy: RelayPolicy { state.withLock { $0.relay.policy } }

    func open(_ channel: any Channel) -> ConnectionID {
        let (connection, greeting) = state.withLock { state in
            let connection = ConnectionID(state.nextConnection)
            state.nextConnection += 1
            state.channels[connection] = channel
            return (connection, state.relay.connect(connection))
        }
        send(greeting.map { ($0, channel) })
        return connection
    }

    func close(_ connection: ConnectionID) {
        state.withLock { state in
            state.relay.disconnect(connection)
            state.channels[connection] = nil
            state.pending[connection] = nil
            state.orders[connection] = nil
        }
    }

    /// Hands one text message to the relay and writes every resulting frame to its connection.
    func receive(_ text: String, from connection: ConnectionID) {
        let now = clock()
        let routed = state.withLock { state -> [(RelayOutput, any Channel)] in
            var order: LaneOrder?
            if acceptsLaneOrders {
                if let given = LaneOrder(frame: text) {
                    // Bounded: a connection holds at most 64 orders (the lane gives one per EVENT).
                    if (state.orders[connection]?.count ?? 0) < 64 { state.orders[connection, default: [:]][given.eventID] = given }
                    return []
                }
                if let waiting = state.orders[connection], !waiting.isEmpty, text.hasPrefix("[\"EVENT\""),
                    let id = FrameOutline(text)?.eventObject?["id"]?.string
                {
                    order = state.orders[connection]?.removeValue(forKey: id)
                }
            }
            if case .reject(let id, let message)? = order, let channel = state.channels[connection] {
                let frame = RelayMessage.ok(eventID: id, accepted: false, message: message).json()
                return [(RelayOutput(connection: connection, frame: frame, meaning: .ok(eventID: id, accepted: false)), channel)]
            }
            return state.relay.receive(text, from: connection, now: now).compactMap { output in
                if case .withholdOK? = order, output.connection == connection, case .ok = output.meaning { return nil }
                return state.channels[output.connection].map { (output, $0) }
            }
        }
        send(routed)
    }

    /// Bytes written to `connection` that its socket has not taken yet.
    func pendingBytes(of connection: ConnectionID) -> Int { state.withLock { $0.pending[connection] ?? 0 } }

    private func send(_ routed: [(RelayOutput, any Channel)]) {
        for (output, channel) in routed {
            let size = output.frame.utf8.count
            let admitted = state.withLock { state -> Bool in
                guard state.channels[output.connection] != nil else { return false }
                let total = (state.pending[output.connection] ?? 0) + size
                guard total <= maximumPendingBytes else { return false }
                state.pending[output.connection] = total
                return true
            }
            guard admitted else {
                // A consumer this far behind is dropped; its pending writes are released by the close.
                close(output.connection)
                channel.close(promise: nil)
                continue
            }
            let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: output.frame))
            let connection = output.connection
            channel.writeAndFlush(frame).whenComplete { [self] _ in
                state.withLock { state in
                    if let left = state.pending[connection] { state.pending[connection] = max(0, left - size) }
                }
            }
        }
    }
}
