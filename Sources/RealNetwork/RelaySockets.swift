// The real-network lane's links (docs/real-network.md): one real WebSocket per member × relay, to a
// relay process on loopback (or to the fault proxy in front of it). The world's network decides
// when a frame reaches a relay; this type writes it to the socket, and hands back what the relays
// wrote, as it comes.
//
// When is the real network "idle"? A relay answers every EVENT (OK), REQ (EOSE or CLOSED), COUNT
// and AUTH it reads, and pushes events to other subscribers as it stores them. So the sockets are
// settled when no answer is awaited on any open connection and nothing arrived for a settle window.
// Time is counted only through the waits callers ask for (poll timeouts), never by reading a clock:
// a wait that returns nothing adds its length to the quiet time, anything read resets it. An answer
// still awaited after the answer bound of quiet is overdue: an infrastructure failure, reported,
// never taken for a pass.
import InMemoryRelay
import LoopbackWebSocket
import Nostr
import Synchronization

/// Real sockets from members to real relays, opened on first use, for `RelayNetwork.attachExternal`.
package final class RelaySockets: ExternalRelayLinks {
    /// How the lane waits.
    package struct Bounds: Sendable {
        /// Quiet time after which the sockets count as settled (no answer awaited).
        package var settleMilliseconds = 40
        /// Quiet time after which an awaited answer is overdue.
        package var answerMilliseconds = 10_000
        /// How long a connect and its handshake may take.
        package var connectSeconds = 5
        package init() {}
    }

    /// What went over the sockets (both ways), for the lane's figures.
    package struct Figures: Sendable, Equatable {
        package var connections = 0
        package var connectionsEnded = 0
        package var framesSent = 0
        package var framesReceived = 0
        package var bytesSent = 0
        package var bytesReceived = 0
    }

    private struct Link {
        let socket: LoopbackWebSocket
        let relay: String
        /// Answers awaited on this connection: `OK <event id>` or `SUB <subscription id>`, counted.
        var awaited: [String: Int] = [:]
        /// Events whose OK the relay was ordered to withhold (`LaneOrder.withholdOK`): not awaited.
        var withheld: Set<String> = []
        var awaitedCount: Int { awaited.values.reduce(0, +) }
    }

    private struct State {
        var links: [ConnectionID: Link] = [:]
        var quietMilliseconds = Int.max / 2
        var overdue: [String] = []
        var figures = Figures()
        /// Bytes of sockets already closed (their counters went with them).
        var closedBytes = (sent: 0, received: 0)
    }

    private let ports: [String: Int]
    private let bounds: Bounds
    private let state = Mutex(State())

    /// Links to the relays listening on 127.0.0.1 at `ports` (by relay name).
    package init(ports: [String: Int], bounds: Bounds = Bounds()) {
        self.ports = ports
        self.bounds = bounds
    }

    /// The figures so far.
    package var figures: Figures {
        state.withLock { state in
            var figures = state.figures
            figures.bytesSent = state.closedBytes.sent + state.links.values.reduce(0) { $0 + $1.socket.bytesSent }
            figures.bytesReceived = state.closedBytes.received + state.links.values.reduce(0) { $0 + $1.socket.bytesReceived }
            return figures
        }
    }

    package func open(_ connection: ConnectionID, member: String, relay: String) -> String? {
        guard let port = ports[relay] else { return "no relay process for '\(relay)'" }
        let seconds = bounds.connectSeconds
        // Made under the lock: the socket is not shareable, and never leaves the state.
        return state.withLock { state -> String? in
            do {
                let socket = try LoopbackWebSocket(port: port, timeout: seconds)
                state.links[connection] = Link(socket: socket, relay: relay)
                state.figures.connections += 1
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    package func send(_ frame: String, on connection: ConnectionID) -> String? {
        state.withLock { state in
            guard var link = state.links[connection] else { return "connection \(connection) is not open" }
            do {
                try link.socket.send(frame)
            } catch {
                Self.end(connection, in: &state)
                return "\(error)"
            }
            if case .withholdOK(let id)? = LaneOrder(frame: frame) {
                link.withheld.insert(id)
            } else if let key = Self.awaitedAnswer(to: frame) {
                if key.hasPrefix("OK "), link.withheld.remove(String(key.dropFirst(3))) != nil {
                    // Ordered to stay unanswered: no OK is owed.
                } else {
                    link.awaited[key, default: 0] += 1
                }
            }
            state.links[connection] = link
            state.figures.framesSent += 1
            state.quietMilliseconds = 0
            return nil
        }
    }

    package func close(_ connection: ConnectionID) {
        state.withLock { state in Self.end(connection, in: &state) }
    }

    package func collect(waitingAtMost milliseconds: Int) -> [ExternalArrival] {
        state.withLock { state in
            let order = state.links.keys.sorted()
            let sockets = order.compactMap { state.links[$0]?.socket }
            guard !sockets.isEmpty else {
                state.quietMilliseconds += milliseconds
                return []
            }
            let ready = LoopbackWebSocket.readable(sockets, waitingAtMost: milliseconds)
            var arrivals: [ExternalArrival] = []
            // Any byte read is activity, a whole frame or not (a split connection delivers frames
            // in pieces): only a wait in which nothing at all came counts as quiet.
            var active = false
            for index in ready {
                let connection = order[index]
                guard var link = state.links[connection] else { continue }
                let before = link.socket.bytesReceived
                defer { if link.socket.bytesReceived != before { active = true } }
                do {
                    for text in try link.socket.readAvailable() {
                        arrivals.append(.frame(connection, text))
                        state.figures.framesReceived += 1
                        if let key = Self.answerKey(of: text), let count = link.awaited[key] {
                            link.awaited[key] = count > 1 ? count - 1 : nil
                        }
                    }
                    state.links[connection] = link
                } catch {
                    arrivals.append(.closed(connection, reason: "\(error)"))
                    Self.end(connection, in: &state)
                }
            }
            if arrivals.isEmpty && !active {
                state.quietMilliseconds += milliseconds
                if state.quietMilliseconds >= bounds.answerMilliseconds {
                    for (connection, link) in state.links.sorted(by: { $0.key < $1.key }) where link.awaitedCount > 0 {
                        let keys = link.awaited.keys.sorted().prefix(3).joined(separator: ", ")
                        state.overdue.append(
                            "relay \(link.relay) left \(link.awaitedCount) answer(s) on \(connection) unanswered "
                                + "for \(bounds.answerMilliseconds) ms (\(keys))")
                        state.links[connection]?.awaited = [:]
                    }
                }
            } else {
                state.quietMilliseconds = 0
            }
            return arrivals
        }
    }

    package var awaitsAnswers: Bool {
        state.withLock { state in state.links.values.contains { $0.awaitedCount > 0 } }
    }

    package var isQuiet: Bool {
        state.withLock { state in state.quietMilliseconds >= bounds.settleMilliseconds }
    }

    package func takeOverdue() -> [String] {
        state.withLock { state in
            defer { state.overdue = [] }
            return state.overdue
        }
    }

    /// Closes every socket (the end of a run).
    package func closeAll() {
        state.withLock { state in
            for connection in state.links.keys.sorted() { Self.end(connection, in: &state) }
        }
    }

    private static func end(_ connection: ConnectionID, in state: inout State) {
        guard let link = state.links.removeValue(forKey: connection) else { return }
        state.closedBytes.sent += link.socket.bytesSent
        state.closedBytes.received += link.socket.bytesReceived
        state.figures.connectionsEnded += 1
        // The socket closes as its last reference goes (LoopbackWebSocket's deinit).
    }

    /// The answer a client frame awaits: `OK <id>` for EVENT and AUTH, `SUB <id>` for REQ and COUNT.
    static func awaitedAnswer(to frame: String) -> String? {
        guard let outline = FrameOutline(frame) else { return nil }
        switch outline.verb {
        case "EVENT": return outline.eventObject?["id"]?.string.map { "OK \($0)" }
        case "AUTH": return outline.items.count == 2 ? outline.items[1].object?["id"]?.string.map { "OK \($0)" } : nil
        case "REQ", "COUNT": return outline.items.count >= 2 ? outline.items[1].string.map { "SUB \($0)" } : nil
        default: return nil
        }
    }

    /// The awaited answer a relay frame gives, if it is one.
    static func answerKey(of frame: String) -> String? {
        // Events are the bulk of what relays send, and answer nothing.
        guard !frame.hasPrefix("[\"EVENT\""), let outline = FrameOutline(frame), outline.items.count >= 2,
            let value = outline.items[1].string
        else { return nil }
        switch outline.verb {
        case "OK": return "OK \(value)"
        case "EOSE", "CLOSED", "COUNT": return "SUB \(value)"
        default: return nil
        }
    }
}
