import InMemoryRelay
import NIOCore
import NIOWebSocket

/// Feeds whole text messages to the hub (fragments are joined by swift-nio's
/// `NIOWebSocketFrameAggregator` in front of it), answers ping and close, and stops reading from
/// a client whose answers pile up (its socket is not writable) until they drain.
///
/// Fair share: every connection's frames run on the one event loop, so a client sending expensive
/// frames back to back would make every other client wait behind them. After each frame the
/// connection owes `penalty` times the time the relay spent on it; until that has passed, its
/// further frames wait in a bounded queue and its socket is not read. A client sending cheap
/// frames never waits noticeably; one sending expensive frames gets at most 1/(1 + penalty) of
/// the loop while others are served in between.
final class RelayFrameHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let hub: RelayHub
    private var connection: ConnectionID?
    /// A read the channel asked for while the client was not taking our answers, or owed time.
    private var heldRead = false
    /// How many times its own cost a frame makes its connection wait before the next one.
    static let penalty: Int64 = 4
    /// Frames a connection may have waiting for its turn; past this it is closed.
    static let maximumQueuedFrames = 1_024
    /// Until when this connection's frames wait (wall clock), and the frames that do.
    private var owedUntil = NIODeadline.uptimeNanoseconds(0)
    private var queued: [String] = []
    private var resumeScheduled = false

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
            guard connection != nil else { return }
            queued.append(String(buffer: frame.unmaskedData))
            guard queued.count <= Self.maximumQueuedFrames else {
                context.close(promise: nil)
                return
            }
            drain(context: context)
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

    /// Runs queued frames while the connection owes no time; otherwise comes back when it does not.
    private func drain(context: ChannelHandlerContext) {
        guard let connection else { return }
        while !queued.isEmpty {
            let now = NIODeadline.now()
            guard now >= owedUntil else {
                guard !resumeScheduled else { return }
                resumeScheduled = true
                // The handler and its context belong to this event loop, and so does the task: the
                // isolated view lets the closure capture them without claiming they are Sendable.
                context.eventLoop.assumeIsolated().scheduleTask(deadline: owedUntil) { [self] in
                    resumeScheduled = false
                    drain(context: context)
                    resumeHeldRead(context: context)
                }
                return
            }
            hub.receive(queued.removeFirst(), from: connection)
            owedUntil = NIODeadline.now() + (NIODeadline.now() - now) * Self.penalty
        }
    }

    /// Backpressure: while the client does not take what we write, or its frames wait for their
    /// turn, we do not read what it sends (the read is held, so the kernel's buffers, then the
    /// client, wait instead of our memory).
    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable, queued.isEmpty {
            context.read()
        } else {
            heldRead = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        resumeHeldRead(context: context)
        context.fireChannelWritabilityChanged()
    }

    private func resumeHeldRead(context: ChannelHandlerContext) {
        if connection != nil, context.channel.isWritable, queued.isEmpty, heldRead {
            heldRead = false
            context.read()
        }
    }

    /// A message over the size bound, too many fragments or a protocol error: the connection ends.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
