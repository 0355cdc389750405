import InMemoryRelay
import NIOCore
import NIOWebSocket

/// Feeds whole text messages to the hub (fragments are joined by swift-nio's
/// `NIOWebSocketFrameAggregator` in front of it), answers ping and close, and stops reading from
/// a client whose answers pile up (its socket is not writable) until they drain.
final class RelayFrameHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let hub: RelayHub
    private var connection: ConnectionID?
    /// A read the channel asked for while the client was not taking our answers.
    private var heldRead = false

    init(hub: RelayHub) {
        self.hub = hub
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
            guard let connection else { return }
            hub.receive(String(buffer: frame.unmaskedData), from: connection)
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

    /// Backpressure: while the client does not take what we write, we do not read what it sends
    /// (the read is held, so the kernel's buffers, then the client, wait instead of our memory).
    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            context.read()
        } else {
            heldRead = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, heldRead {
            heldRead = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    /// A message over the size bound, too many fragments or a protocol error: the connection ends.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
