import InMemoryRelay
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// Serves one `Relay` to real Nostr clients over WebSocket, on loopback only.
///
/// The relay core stays a deterministic state machine; this shell only carries text frames,
/// supplies the clock, answers NIP-11 requests, and bounds what each connection can cost. It is for interop runs (e.g. the differential test against rust-nostr's
/// LocalRelay), not for production.
///
/// ```swift
/// let server = try RelayWebSocketServer.start(port: 0, relay: relay) { wallClockSeconds() }
/// print(server.url)   // ws://127.0.0.1:<port>
/// try server.stop()
/// ```
package final class RelayWebSocketServer: Sendable {
    /// The bound TCP port.
    package let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel

    /// The URL clients connect to.
    package var url: String { "ws://127.0.0.1:\(port)" }

    /// Starts serving `relay` on 127.0.0.1:`port` (0 picks a free port).
    /// - Parameters:
    ///   - maximumMessageBytes: largest WebSocket message (all fragments joined) accepted before the
    ///     connection is closed; the relay's own frame limit (NOTICE) applies below it.
    ///   - maximumPendingBytes: answers a connection may leave unread before it is dropped.
    ///   - acceptsLaneOrders: take the real-network lane's orders (`LaneOrder`: reject an EVENT,
    ///     withhold its OK), for `relay --lane-orders` only (docs/real-network.md).
    ///   - clock: current Unix time in seconds, used for NIP-40 and NIP-42 checks.
    package static func start(
        port: Int = 0, relay: Relay, maximumMessageBytes: Int = 1 << 20, maximumPendingBytes: Int = 4 << 20,
        acceptsLaneOrders: Bool = false, clock: @escaping @Sendable () -> UInt64
    ) throws -> RelayWebSocketServer {
        // One event loop: every connection's frames reach the relay in one total order. The relay
        // core is one state machine behind a lock, so more I/O threads would only queue on it;
        // what keeps one client from stalling the others is the relay's per-frame work bound and
        // the per-connection backpressure below.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let hub = RelayHub(relay: relay, maximumPendingBytes: maximumPendingBytes, acceptsLaneOrders: acceptsLaneOrders, clock: clock)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Writability turns false past 256 KiB unsent, and the frame handler then stops reading.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 << 10, high: 256 << 10))
            .childChannelInitializer { channel in
                let information = RelayInformationHandler(hub: hub)
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: maximumMessageBytes,
                    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                    upgradePipelineHandler: { channel, _ in
                        // The NIP-11 handler reads HTTP parts: it leaves before WebSocket frames flow.
                        channel.pipeline.removeHandler(information).flatMapThrowing {
                            try channel.pipeline.syncOperations.addHandlers(
                                RelayPipeline.handlers(hub: hub, maximumMessageBytes: maximumMessageBytes))
                        }
                    }
                )
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    // Plain HTTP requests (no upgrade) get the NIP-11 document.
                    try channel.pipeline.syncOperations.addHandler(information)
                }
            }
        do {
            let channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
            guard let bound = channel.localAddress?.port else {
                try? channel.close().wait()
                try? group.syncShutdownGracefully()
                throw ServerError.notBound
            }
            return RelayWebSocketServer(port: bound, group: group, serverChannel: channel)
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    private init(port: Int, group: MultiThreadedEventLoopGroup, serverChannel: any Channel) {
        self.port = port
        self.group = group
        self.serverChannel = serverChannel
    }

    /// Blocks until the listening socket is closed.
    package func waitUntilClosed() throws {
        try serverChannel.closeFuture.wait()
    }

    /// Closes the listener and every connection.
    package func stop() throws {
        try? serverChannel.close().wait()
        try group.syncShutdownGracefully()
    }

    /// The relay's software name and version in its NIP-11 document.
    package static let software = "marmot-conform in-memory relay"

    /// Why the server could not start.
    package enum ServerError: Error {
        case notBound
    }
}
