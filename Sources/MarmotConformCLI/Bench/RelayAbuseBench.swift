// The relay under abuse (issue 17's goal: a well-behaved client's publish-and-read-back stays
// ≤ 50 ms p99 while an abusive client sends expensive queries and never reads, and the server's
// memory stays bounded). The real WebSocket server serves a relay holding the bench's stored events
// on loopback; one thread keeps sending the broadest REQ and COUNT frames a client may send and
// never reads an answer (so the server must drop it and it reconnects), while another client
// publishes an event and reads it back, round after round, timing each round. Wall-clock figures,
// printed and never judged.
import DeterministicScheduler
import Foundation
import InMemoryRelay
import LoopbackWebSocket
import Nostr
import RelayWebSocketServer
import Synchronization

struct RelayAbuseBench {
    let stored: [Event]
    let rounds: Int
    /// The relay's clock: after every stored event.
    let now: UInt64
    let goodAuthor: Keypair
    var generator: SeededGenerator

    struct Figures {
        var latencies: [Double] = []
        var abusiveFrames = 0
        var abusiveConnections = 0
        var rssBefore = 0, rssPeak = 0, rssAfter = 0
    }

    mutating func run() throws -> Figures {
        var relay = Relay(url: "ws://127.0.0.1/", generator: generator.child("abuse-relay"))
        relay.keepsJournal = false
        for event in stored { _ = relay.handle(.event(event), from: ConnectionID(0), now: now) }
        let probes = try (0..<rounds).map { round in
            try UnsignedEvent(pubkey: goodAuthor.publicKey, createdAt: now, kind: .textNote, tags: [], content: "probe \(round)")
                .signed(with: goodAuthor, using: &generator)
        }
        let clock = now
        let server = try RelayWebSocketServer.start(port: 0, relay: relay) { clock }
        defer { try? server.stop() }
        var figures = Figures()
        figures.rssBefore = Self.residentBytes()

        let shared = Shared()
        let port = server.port
        let abuser = Thread {
            // The broadest frames a client may send: every group event and gift wrap with no limit
            // (tens of thousands of answers), and COUNT with the most filters a frame may carry.
            let count = "[\"COUNT\",\"c\"," + (0..<100).map { "{\"kinds\":[445,1059],\"since\":\($0)}" }.joined(separator: ",") + "]"
            var serial = 0
            while !shared.stopping.withLock({ $0 }) {
                guard let socket = try? LoopbackWebSocket(port: port, timeout: 2) else { continue }
                shared.counts.withLock { $0.connections += 1 }
                while !shared.stopping.withLock({ $0 }) {
                    serial += 1
                    let frame = serial.isMultiple(of: 2) ? count : "[\"REQ\",\"a\(serial)\",{\"kinds\":[445,1059]}]"
                    guard (try? socket.send(frame)) != nil else { break }
                    shared.counts.withLock { $0.frames += 1 }
                }
            }
        }
        abuser.start()
        defer { shared.stopping.withLock { $0 = true } }

        let good = try LoopbackWebSocket(port: port)
        let stopwatch = ContinuousClock()
        for (round, probe) in probes.enumerated() {
            let started = stopwatch.now
            try good.send(ClientMessage.event(probe).json())
            try Self.read(good, until: "[\"OK\",\"\(probe.id.hex)\",true")
            try good.send(ClientMessage.request(subscription: SubscriptionID("g\(round)"), filters: [Filter(ids: [probe.id.hex])]).json())
            try Self.read(good, until: "[\"EOSE\",\"g\(round)\"]")
            figures.latencies.append(Self.milliseconds(stopwatch.now - started))
            try good.send(ClientMessage.close(SubscriptionID("g\(round)")).json())
            figures.rssPeak = max(figures.rssPeak, Self.residentBytes())
            Thread.sleep(forTimeInterval: 0.005)
        }
        shared.stopping.withLock { $0 = true }
        while !abuser.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        figures.rssAfter = Self.residentBytes()
        (figures.abusiveFrames, figures.abusiveConnections) = shared.counts.withLock { ($0.frames, $0.connections) }
        return figures
    }

    /// What the abusive thread and the bench share.
    private final class Shared: Sendable {
        let stopping = Mutex(false)
        let counts = Mutex((frames: 0, connections: 0))
    }

    /// Reads frames until one starts with `prefix` (the relay answers in order on one connection).
    private static func read(_ socket: LoopbackWebSocket, until prefix: String) throws {
        for _ in 0..<10_000 where try socket.receive().hasPrefix(prefix) { return }
        throw WebSocketError(.timeout, "no \(prefix) in 10,000 frames")
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// This process's resident set (the server runs in it), from /proc; 0 where there is none.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }

    static func print(_ figures: Figures, stored: Int) {
        let sorted = figures.latencies.sorted()
        func percentile(_ p: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            return String(format: "%.1f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
        }
        func megabytes(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1_048_576) }
        Swift.print("relay over WebSocket with \(stored) stored events, one client sending broad REQ and COUNT frames and never reading:")
        Swift.print(
            "  well-behaved publish + read back, \(sorted.count) rounds: p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1)) (goal: p99 ≤ 50 ms)"
        )
        Swift.print(
            "  abusive client: \(figures.abusiveFrames) expensive frames over \(figures.abusiveConnections) connection(s) (each dropped once its unread answers passed the bound)"
        )
        Swift.print(
            "  server process memory (RSS): \(megabytes(figures.rssBefore)) before, \(megabytes(figures.rssPeak)) peak, \(megabytes(figures.rssAfter)) after (goal: bounded)"
        )
    }
}
