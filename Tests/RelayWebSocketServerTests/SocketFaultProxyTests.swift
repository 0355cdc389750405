import Foundation
import Glibc
import Testing

@testable import RelayWebSocketServer

/// The fault proxy between real sockets: a client and an upstream server, both plain blocking
/// loopback sockets here, with the proxy between them doing one fault per test. Every wait is
/// bounded by poll(2) timeouts, so a proxy that forwards nothing fails a test instead of hanging it.
/// Time is only ever checked as a lower bound (a delay that held bytes back), never as a speed.
@Suite struct SocketFaultProxyTests {
    /// A listening loopback socket standing for the relay.
    struct Upstream {
        let descriptor: Int32
        let port: Int

        init() throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(listener >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0 && listen(listener, 8) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            descriptor = listener
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        /// The next connection, or nil when none comes within `milliseconds`.
        func accept(within milliseconds: Int32 = 5_000) -> Int32? {
            guard Loopback.readable(descriptor, within: milliseconds) else { return nil }
            let accepted = Glibc.accept(descriptor, nil, nil)
            return accepted >= 0 ? accepted : nil
        }

        func close() { _ = Glibc.close(descriptor) }
    }

    enum Loopback {
        static func connect(to port: Int) throws -> Int32 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(descriptor >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try #require(connected == 0, "connect: errno \(errno)")
            return descriptor
        }

        static func readable(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, milliseconds) > 0
        }

        static func send(_ bytes: [UInt8], on descriptor: Int32) throws {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            try #require(sent == bytes.count)
        }

        enum Ending: Equatable {
            /// The peer closed in order (FIN): read returned 0.
            case closed
            /// The connection was reset (ECONNRESET).
            case reset
            /// Nothing more came within the wait, the connection still open.
            case quiet
            case failed(Int32)
        }

        /// Reads until `count` bytes came, the connection ended, or nothing came for `milliseconds`.
        static func receive(_ count: Int = .max, from descriptor: Int32, quietAfter milliseconds: Int32 = 5_000) -> (
            [UInt8], Ending
        ) {
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while received.count < count {
                guard readable(descriptor, within: milliseconds) else { return (received, .quiet) }
                let read = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if read == 0 { return (received, .closed) }
                if read < 0 { return (received, errno == ECONNRESET ? .reset : .failed(errno)) }
                received += chunk[0..<read]
            }
            return (received, .quiet)
        }
    }

    /// A proxy whose first connection suffers `fault`, an upstream, and a client connected through it.
    struct Bench {
        let upstream: Upstream
        let proxy: SocketFaultProxy
        let client: Int32

        init(_ fault: SocketFaultProxy.Fault) throws {
            upstream = try Upstream()
            proxy = try SocketFaultProxy.start(upstreamPort: upstream.port) { $0 == 0 ? fault : .none }
            client = try Loopback.connect(to: proxy.port)
        }

        func close() {
            _ = Glibc.close(client)
            upstream.close()
            try? proxy.stop()
        }
    }

    static let payload = (0..<100).map { UInt8($0) }

    @Test func aSplitConnectionDeliversEveryByteInSmallPieces() throws {
        let bench = try Bench(.split(bytes: 7, gapMilliseconds: 2))
        defer { bench.close() }
        let server = try #require(bench.upstream.accept())
        defer { _ = close(server) }
        try Loopback.send(Self.payload, on: bench.client)
        let (received, _) = Loopback.receive(Self.payload.count, from: server)
        #expect(received == Self.payload)
        let record = try #require(bench.proxy.connections.first)
        #expect(record.forwarded[.toServer] == 100)
        // 100 bytes in pieces of at most 7 take at least 15 writes, each flushed on its own.
        #expect((record.writes[.toServer] ?? 0) >= 15, "\(record)")
        // And the other way too: the server's answer is cut the same way.
        try Loopback.send(Array(Self.payload.prefix(20)), on: server)
        let (answer, _) = Loopback.receive(20, from: bench.client)
        #expect(answer == Array(Self.payload.prefix(20)))
        #expect((bench.proxy.connections.first?.writes[.toClient] ?? 0) >= 3)
    }

    /// Chunks read while the pieces of an earlier chunk still wait keep their place behind them:
    /// a split cuts the stream, it never reorders it (each chunk's pieces scheduled from its own
    /// arrival would let the second chunk's first piece overtake the first chunk's rest).
    @Test func aSplitConnectionKeepsTheOrderOfChunksReadBackToBack() throws {
        let bench = try Bench(.split(bytes: 7, gapMilliseconds: 3))
        defer { bench.close() }
        let server = try #require(bench.upstream.accept())
        defer { _ = close(server) }
        let second = Self.payload.map { $0 &+ 100 }
        try Loopback.send(Self.payload, on: bench.client)
        // The first chunk's 15 pieces take about 45 ms to go out: the second arrives meanwhile.
        usleep(10_000)
        try Loopback.send(second, on: bench.client)
        let (received, _) = Loopback.receive(200, from: server)
        #expect(received == Self.payload + second)
    }

    @Test func aDelayedConnectionHoldsBytesBackAtLeastTheDelay() throws {
        let bench = try Bench(.delay(milliseconds: 300))
        defer { bench.close() }
        let server = try #require(bench.upstream.accept())
        defer { _ = close(server) }
        let clock = ContinuousClock()
        let sent = clock.now
        try Loopback.send(Self.payload, on: bench.client)
        let (received, _) = Loopback.receive(Self.payload.count, from: server)
        #expect(received == Self.payload)
        #expect(clock.now - sent >= .milliseconds(300))
    }

    @Test func aResetCutsTheConnectionAfterExactlyTheGivenBytes() throws {
        let bench = try Bench(.reset(after: 40, direction: .toServer))
        defer { bench.close() }
        let server = try #require(bench.upstream.accept())
        defer { _ = close(server) }
        try Loopback.send(Self.payload, on: bench.client)
        let (received, ending) = Loopback.receive(from: server)
        #expect(received == Array(Self.payload.prefix(40)), "the server got \(received.count) bytes")
        #expect(ending == .reset, "the server's side ended \(ending)")
        let (_, clientEnding) = Loopback.receive(from: bench.client)
        #expect(clientEnding == .reset, "the client's side ended \(clientEnding)")
        #expect(bench.proxy.connections.first?.ending == "reset")
    }

    @Test func aDroppedConnectionClosesInOrderAfterTheGivenBytes() throws {
        let bench = try Bench(.drop(after: 5, direction: .toClient))
        defer { bench.close() }
        let server = try #require(bench.upstream.accept())
        defer { _ = close(server) }
        try Loopback.send(Array(Self.payload.prefix(20)), on: server)
        let (received, ending) = Loopback.receive(from: bench.client)
        #expect(received == Array(Self.payload.prefix(5)))
        #expect(ending == .closed)
        #expect(bench.proxy.connections.first?.ending == "dropped")
    }

    @Test func aRefusedConnectionNeverReachesTheServer() throws {
        let bench = try Bench(.refuse)
        defer { bench.close() }
        let (received, ending) = Loopback.receive(from: bench.client)
        #expect(received.isEmpty)
        #expect(ending == .closed || ending == .reset, "\(ending)")
        #expect(bench.upstream.accept(within: 300) == nil)
        let record = try #require(bench.proxy.connections.first)
        #expect(!record.reachedServer)
        #expect(record.ending == "refused")
        // The next connection is not the faulted one: it goes through.
        let second = try Loopback.connect(to: bench.proxy.port)
        defer { _ = close(second) }
        let server = try #require(bench.upstream.accept())
        _ = close(server)
    }

    @Test func aPausedConnectionIsNotReadUntilThePauseEnds() throws {
        let clock = ContinuousClock()
        let connected = clock.now
        let bench = try Bench(.pauseReading(milliseconds: 300))
        defer { bench.close() }
        let server = try #require(bench.upstream.accept())
        defer { _ = close(server) }
        try Loopback.send(Self.payload, on: bench.client)
        let (received, _) = Loopback.receive(Self.payload.count, from: server)
        #expect(received == Self.payload)
        #expect(clock.now - connected >= .milliseconds(300))
    }

    @Test func aFaultOutOfBoundsIsRefusedNotApplied() throws {
        let bench = try Bench(.delay(milliseconds: SocketFaultProxy.Fault.maximumMilliseconds + 1))
        defer { bench.close() }
        let (_, ending) = Loopback.receive(from: bench.client)
        #expect(ending == .closed || ending == .reset)
        #expect(bench.proxy.connections.first?.ending == "refused")
    }
}
