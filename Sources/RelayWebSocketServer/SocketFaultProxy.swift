import Glibc
import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on loopback that stands between clients and one upstream server (a relay) and does
/// to each connection what a real network does to it: hold its bytes back, cut them into small
/// pieces, reset it in the middle of a frame, refuse it, or stop reading from it for a while.
///
/// It works on bytes, below WebSocket: a split or a reset lands wherever the byte count says, in
/// the middle of a WebSocket frame or of a Nostr message, as on a real network. Each accepted
/// connection gets its fault from `faults(index)`, `index` counting connections from 0 in accept
/// order, so a run names which connection suffers what. Loopback only; every fault is bounded
/// (delays and pauses in milliseconds, at most a minute).
///
/// ```swift
/// let proxy = try SocketFaultProxy.start(upstreamPort: relay.port) { index in index == 0 ? .split(bytes: 7) : .none }
/// // clients connect to ws://127.0.0.1:\(proxy.port) instead of the relay
/// try proxy.stop()
/// ```
package final class SocketFaultProxy: Sendable {
    /// Which way bytes flow through a connection.
    package enum Direction: String, Sendable, CaseIterable {
        /// From the client (a member) to the upstream server (the relay).
        case toServer = "to-server"
        /// From the upstream server back to the client.
        case toClient = "to-client"
    }

    /// What happens to one connection.
    package enum Fault: Sendable, Equatable {
        /// Bytes pass untouched.
        case none
        /// Accepted, then closed at once, before anything reaches the upstream server.
        case refuse
        /// Every chunk, both ways, forwarded this many milliseconds after it arrived (order kept).
        case delay(milliseconds: Int)
        /// Every chunk, both ways, forwarded in pieces of at most `bytes`, each written and flushed
        /// on its own, `gapMilliseconds` apart.
        case split(bytes: Int, gapMilliseconds: Int = 1)
        /// After `bytes` bytes have gone `direction`, the connection is reset (TCP RST both ways):
        /// the byte after them never arrives.
        case reset(after: Int, direction: Direction)
        /// After `bytes` bytes have gone `direction`, both sides are closed in order (FIN).
        case drop(after: Int, direction: Direction)
        /// Nothing is read from the client for this many milliseconds after it connects; what it
        /// sends meanwhile waits in the kernel's buffers.
        case pauseReading(milliseconds: Int)

        /// The longest delay or pause a fault may ask for.
        package static let maximumMilliseconds = 60_000

        var isValid: Bool {
            switch self {
            case .none, .refuse: true
            case .delay(let milliseconds), .pauseReading(let milliseconds): (0...Self.maximumMilliseconds).contains(milliseconds)
            case .split(let bytes, let gap): bytes >= 1 && (0...Self.maximumMilliseconds).contains(gap)
            case .reset(let after, _), .drop(let after, _): after >= 0
            }
        }
    }

    /// Why the proxy could not start.
    package enum ProxyError: Error, Equatable {
        case notBound
        case invalidFault(index: Int)
    }

    /// What the proxy did, per connection in accept order (for tests and reports).
    package struct ConnectionRecord: Sendable, Equatable {
        package var fault: Fault
        /// Bytes forwarded each way.
        package var forwarded: [Direction: Int] = [:]
        /// Writes (each flushed) made each way: more than the chunks read when a split cuts them.
        package var writes: [Direction: Int] = [:]
        /// Whether the upstream server was connected (false for a refused connection).
        package var reachedServer = false
        /// How the connection ended, once it has: "closed", "reset", "refused", "dropped".
        package var ending: String?
    }

    /// The bound TCP port clients connect to.
    package let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel
    private let book: Book

    /// Starts a proxy on 127.0.0.1:`port` (0 picks a free port) to 127.0.0.1:`upstreamPort`.
    package static func start(
        port: Int = 0, upstreamPort: Int, faults: @escaping @Sendable (Int) -> Fault
    ) throws -> SocketFaultProxy {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let book = Book()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Nothing is read from a client until its upstream connection stands (and its pause ends).
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { client in
                let (index, fault) = book.records.withLock { records -> (Int, Fault) in
                    let index = records.count
                    let asked = faults(index)
                    let fault = asked.isValid ? asked : .refuse
                    records.append(ConnectionRecord(fault: fault))
                    return (index, fault)
                }
                let ledger = Ledger(book: book, index: index)
                if fault == .refuse {
                    ledger.end("refused")
                    return client.close()
                }
                return ClientBootstrap(group: client.eventLoop)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: "127.0.0.1", port: upstreamPort)
                    .flatMap { server in
                        ledger.update { $0.reachedServer = true }
                        let toServer = Forwarder(direction: .toServer, fault: fault, ledger: ledger)
                        let toClient = Forwarder(direction: .toClient, fault: fault, ledger: ledger)
                        toServer.peer = server
                        toClient.peer = client
                        toServer.partner = toClient
                        toClient.partner = toServer
                        do {
                            try client.pipeline.syncOperations.addHandler(toServer)
                            try server.pipeline.syncOperations.addHandler(toClient)
                        } catch {
                            return client.eventLoop.makeFailedFuture(error)
                        }
                        return client.eventLoop.makeSucceededVoidFuture()
                    }
                    .flatMapError { error in
                        ledger.end("closed")
                        return client.close()
                    }
            }
        do {
            let channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
            guard let bound = channel.localAddress?.port else {
                try? channel.close().wait()
                try? group.syncShutdownGracefully()
                throw ProxyError.notBound
            }
            return SocketFaultProxy(port: bound, group: group, serverChannel: channel, book: book)
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    private init(port: Int, group: MultiThreadedEventLoopGroup, serverChannel: any Channel, book: Book) {
        self.port = port
        self.group = group
        self.serverChannel = serverChannel
        self.book = book
    }

    /// What the proxy did so far, one record per accepted connection, in accept order.
    package var connections: [ConnectionRecord] { book.records.withLock { $0 } }

    /// Closes the listener and every connection.
    package func stop() throws {
        try? serverChannel.close().wait()
        try group.syncShutdownGracefully()
    }
}

/// Every connection's record, shared by the accepting loop and the forwarders.
private final class Book: Sendable {
    let records = Mutex<[SocketFaultProxy.ConnectionRecord]>([])
}

/// One connection's record in the proxy's book.
private struct Ledger: Sendable {
    let book: Book
    let index: Int

    func update(_ change: (inout SocketFaultProxy.ConnectionRecord) -> Void) {
        book.records.withLock { change(&$0[index]) }
    }

    /// The first ending recorded stands (a reset also closes both channels afterwards).
    func end(_ how: String) {
        update { if $0.ending == nil { $0.ending = how } }
    }
}

/// Reads one side of a connection and writes what it read to the other side, applying the fault.
/// Both forwarders of a connection live on the same event loop.
private final class Forwarder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let direction: SocketFaultProxy.Direction
    let fault: SocketFaultProxy.Fault
    let ledger: Ledger
    /// The channel this forwarder writes to.
    var peer: (any Channel)?
    var partner: Forwarder?
    /// Bytes passed on so far (for reset and drop).
    private var passed = 0
    private var cut = false
    private var reading = false

    init(direction: SocketFaultProxy.Direction, fault: SocketFaultProxy.Fault, ledger: Ledger) {
        self.direction = direction
        self.fault = fault
        self.ledger = ledger
    }

    /// The client's channel is not read automatically: its first read is asked for once it is
    /// active (the initializer runs before that), after the pause when the fault is one.
    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startReading(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startReading(context)
        context.fireChannelActive()
    }

    private func startReading(_ context: ChannelHandlerContext) {
        guard direction == .toServer, !reading else { return }
        reading = true
        if case .pauseReading(let milliseconds) = fault {
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .milliseconds(Int64(milliseconds))) { channel.read() }
        } else {
            context.read()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !cut, let peer else { return }
        var buffer = unwrapInboundIn(data)
        switch fault {
        case .none, .refuse, .pauseReading:
            write(buffer, to: peer)
        case .delay(let milliseconds):
            let held = buffer
            context.eventLoop.scheduleTask(in: .milliseconds(Int64(milliseconds))) { self.write(held, to: peer) }
        case .split(let bytes, let gap):
            // One queue per direction, drained one piece per gap: pieces of a chunk read while the
            // previous chunk's pieces still wait go after them (scheduling each chunk's pieces from
            // its own arrival would let them overtake, reordering the stream).
            while buffer.readableBytes > 0, let piece = buffer.readSlice(length: min(bytes, buffer.readableBytes)) {
                pieces.append(piece)
            }
            drain(context.eventLoop, to: peer, gap: gap)
        case .reset(let after, let faulted), .drop(let after, let faulted):
            guard faulted == direction else { return write(buffer, to: peer) }
            let room = after - passed
            if buffer.readableBytes <= room { return write(buffer, to: peer) }
            if room > 0, let head = buffer.readSlice(length: room) { write(head, to: peer) }
            cut = true
            partner?.cut = true
            if case .reset = fault {
                ledger.end("reset")
                Self.reset(context.channel)
                Self.reset(peer)
            } else {
                ledger.end("dropped")
                peer.close(promise: nil)
                context.close(promise: nil)
            }
        }
    }

    /// Split pieces waiting their turn, and whether a drain is scheduled.
    private var pieces: [ByteBuffer] = []
    private var draining = false

    /// Writes the next waiting piece now and schedules the one after it `gap` milliseconds later.
    private func drain(_ loop: any EventLoop, to peer: any Channel, gap: Int) {
        guard !draining, !cut, !pieces.isEmpty else { return }
        write(pieces.removeFirst(), to: peer)
        guard !pieces.isEmpty else { return }
        draining = true
        loop.scheduleTask(in: .milliseconds(Int64(gap))) {
            self.draining = false
            self.drain(loop, to: peer, gap: gap)
        }
    }

    private func write(_ buffer: ByteBuffer, to peer: any Channel) {
        passed += buffer.readableBytes
        let count = buffer.readableBytes
        let direction = direction
        ledger.update {
            $0.forwarded[direction, default: 0] += count
            $0.writes[direction, default: 0] += 1
        }
        peer.writeAndFlush(buffer, promise: nil)
    }

    /// SO_LINGER with a zero timeout makes close() send RST instead of FIN. NIOPosix's socket
    /// channels provide socket options; any other channel is closed plainly.
    private static func reset(_ channel: any Channel) {
        guard let options = channel as? any SocketOptionProvider else { return channel.close(promise: nil) }
        options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        ledger.end("closed")
        // A cut closes both sides itself (a reset must not turn into a plain close of the other side).
        if !cut { peer?.close(promise: nil) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Reads are asked for one at a time (autoRead is off): ask for the next once this batch
        // has been handed on, so that a slow peer is not flooded beyond its socket's buffer.
        context.read()
    }
}
