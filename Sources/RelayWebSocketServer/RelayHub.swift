import InMemoryRelay
import NIOCore
import NIOWebSocket
import Synchronization

/// The relay shared by every connection, and the channels its answers go to.
final class RelayHub: Sendable {
    private struct State {
        var relay: Relay
        var channels: [ConnectionID: any Channel] = [:]
        var nextConnection: UInt64 = 1
    }

    private let state: Mutex<State>
    private let clock: @Sendable () -> UInt64

    init(relay: Relay, clock: @escaping @Sendable () -> UInt64) {
        state = Mutex(State(relay: relay))
        self.clock = clock
    }

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
        }
    }

    /// Hands one text message to the relay and writes every resulting frame to its connection.
    func receive(_ text: String, from connection: ConnectionID) {
        let now = clock()
        let routed = state.withLock { state in
            state.relay.receive(text, from: connection, now: now).compactMap { output in
                state.channels[output.connection].map { (output, $0) }
            }
        }
        send(routed)
    }

    private func send(_ routed: [(RelayOutput, any Channel)]) {
        for (output, channel) in routed {
            let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: output.frame))
            channel.writeAndFlush(frame, promise: nil)
        }
    }
}

/// Reassembles WebSocket messages from frames, answers pings and close, and feeds text to the hub.
final class RelayFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let hub: RelayHub
    private let maximumMessageBytes: Int
    private var connection: ConnectionID?
    private var partial: ByteBuffer?

    init(hub: RelayHub, maximumMessageBytes: Int) {
        self.hub = hub
        self.maximumMessageBytes = maximumMessageBytes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        connection = hub.open(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let connection { hub.close(connection) }
        connection = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            // NIP-01 frames are text; binary payloads are read as UTF-8 too and judged by the relay.
            partial = frame.unmaskedData
            if frame.fin { deliver(context: context) }
        case .continuation:
            guard var buffer = partial else { return }
            var more = frame.unmaskedData
            buffer.writeBuffer(&more)
            partial = buffer
            if buffer.readableBytes > maximumMessageBytes {
                partial = nil
                context.close(promise: nil)
                return
            }
            if frame.fin { deliver(context: context) }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readSlice(length: 2) ?? ByteBuffer()
            let reply = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in channel.close(promise: nil) }
        default:
            break
        }
    }

    private func deliver(context: ChannelHandlerContext) {
        guard let buffer = partial, let connection else { return }
        partial = nil
        hub.receive(String(buffer: buffer), from: connection)
    }
}
