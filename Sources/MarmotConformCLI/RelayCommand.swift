import ArgumentParser
import DeterministicScheduler
import Foundation
import InMemoryRelay
import RelayWebSocketServer

extension MarmotConform {
    /// Serves the in-memory relay over WebSocket on loopback so that real Nostr clients can use it.
    struct RelayServe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "relay",
            abstract: "Serve the in-memory relay on ws://127.0.0.1:<port> (wall clock, seeded challenges)."
        )

        @Option(help: "TCP port on 127.0.0.1 (0 picks a free one).") var port = 7777
        @Option(help: "Seed for NIP-42 challenges.") var seed: UInt64 = 1
        @Flag(help: "Refuse every NIP-70 protected event, even after AUTH.") var rejectProtected = false
        @Flag(help: "Serve kind 1059 only to the AUTHed recipient (NIP-59).") var giftWrapsRequireAuth = false
        @Option(help: "Stored events served for a filter without limit (the newest; default: all).") var maxResults: Int?
        @Flag(help: "Take the real-network lane's orders: reject an EVENT, withhold its OK (docs/real-network.md); never for real clients.")
        var laneOrders = false

        func run() throws {
            var policy = RelayPolicy(acceptsProtectedEvents: !rejectProtected, giftWrapsRequireAuth: giftWrapsRequireAuth)
            if let maxResults {
                guard maxResults >= 1 else { throw ValidationError("--max-results must be at least 1") }
                policy.defaultLimit = maxResults
            }
            let url = "ws://127.0.0.1:\(port)"
            let relay = Relay(url: url, policy: policy, generator: SeededGenerator(seed: seed).child("relay"))
            let server = try RelayWebSocketServer.start(port: port, relay: relay, acceptsLaneOrders: laneOrders) {
                UInt64(max(0, Date().timeIntervalSince1970))
            }
            // Written unbuffered: scripts wait for this line before connecting.
            FileHandle.standardOutput.write(Data("marmot-conform relay listening at \(server.url)\n".utf8))
            try server.waitUntilClosed()
        }
    }
}
