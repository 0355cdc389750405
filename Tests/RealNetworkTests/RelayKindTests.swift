import ConformanceTestSupport
import Foundation
import LoopbackWebSocket
import Nostr
import RealNetwork
import Testing

/// Both relay kinds of the real lane (`RelayKind`: ours, `marmot-conform relay`; LocalRelay through
/// `drivers/relays/localrelay-host.py`) started as the lane starts them (`RelayProcess`, the
/// commands `RelayKind` builds), spoken to over a real WebSocket: each stores an EVENT and serves
/// it back to a REQ, and each refuses an event whose id does not match its content (the twin: a
/// relay that stored anything would pass the first test and fail this one). A process that never
/// prints its URL is a typed failure carrying its stderr, and is reaped.
@Suite(.serialized) struct RelayKindTests {
    struct OnlyNotices: Error {}

    /// The built CLI: beside the test bundle in SwiftPM's build folder, or the debug build.
    static var marmotConform: String? {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
            Vectors.repositoryRoot.appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("marmot-conform").path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The kinds this machine can run: ours always (the CLI is built with the tests); LocalRelay
    /// where the venv is, and always under CI (Peers.requiredByCI), where a missing venv fails.
    static var kinds: [RelayKind] { Peers.shouldRun ? RelayKind.allCases : [.ours] }

    /// Runs `body` against a fresh relay of `kind`, started as the lane starts it, and stops it
    /// (SIGTERM, reaped) on every path; stopping must go cleanly.
    static func withRelay(_ kind: RelayKind, _ body: (LoopbackWebSocket) throws -> Void) async throws {
        let binary = try #require(marmotConform, "marmot-conform is not built (swift build --build-tests builds it)")
        let command = kind.command(for: .init(), marmotConform: binary, root: Vectors.repositoryRoot.path)
        let relay = try await RelayProcess.start(executable: command.executable, arguments: command.arguments)
        var failure: (any Error)?
        do { try body(try LoopbackWebSocket(port: relay.port)) } catch { failure = error }
        #expect(await relay.stop() == nil, "\(kind) did not stop cleanly")
        if let failure { throw failure }
    }

    static func event(_ content: String, seed: UInt64) throws -> Event {
        var generator = TestGenerator(seed: seed)
        let keypair = Keypair.generate(using: &generator)
        let createdAt = UInt64(Date().timeIntervalSince1970)
        return try UnsignedEvent(pubkey: keypair.publicKey, createdAt: createdAt, kind: 1, tags: [], content: content)
            .signed(with: keypair, using: &generator)
    }

    /// The next frame that is not a NOTICE or an AUTH challenge (LocalRelay may send either first).
    static func answer(_ socket: LoopbackWebSocket) throws -> RelayMessage {
        for _ in 0..<8 {
            let message = try RelayMessage(json: try socket.receive())
            switch message {
            case .notice, .auth: continue
            default: return message
            }
        }
        throw OnlyNotices()
    }

    @Test(arguments: kinds) func storesAnEventAndServesItToAReq(kind: RelayKind) async throws {
        try await Self.withRelay(kind) { socket in try Self.storesAndServes(socket, kind: kind) }
    }

    static func storesAndServes(_ socket: LoopbackWebSocket, kind: RelayKind) throws {
        let event = try Self.event("over a real socket", seed: 1)
        try socket.send(ClientMessage.event(event).json())
        guard case .ok(let id, let accepted, let text) = try Self.answer(socket) else {
            Issue.record("no OK")
            return
        }
        #expect(id == event.id.hex && accepted, "\(kind): \(text)")
        try socket.send(ClientMessage.request(subscription: SubscriptionID("back"), filters: [Filter(ids: [event.id.hex])]).json())
        guard case .event(let subscription, let served) = try Self.answer(socket) else {
            Issue.record("\(kind): no EVENT for the REQ")
            return
        }
        #expect(subscription.rawValue == "back" && served == event)
        let end = try Self.answer(socket)
        // LocalRelay closes a subscription whose ids were all found (docs/nostr-relay-semantics.md §2 row 16).
        #expect(end == .endOfStoredEvents(SubscriptionID("back")))
    }

    /// Twin: the same event with its content changed after signing is refused, `OK false "invalid:"`.
    @Test(arguments: kinds) func refusesAnEventWhoseIdDoesNotMatch(kind: RelayKind) async throws {
        try await Self.withRelay(kind) { socket in try Self.refusesTampered(socket, kind: kind) }
    }

    static func refusesTampered(_ socket: LoopbackWebSocket, kind: RelayKind) throws {
        let event = try Self.event("signed text", seed: 2)
        let tampered = ClientMessage.event(event).json().replacingOccurrences(of: "\"signed text\"", with: "\"changed text\"")
        #expect(tampered != ClientMessage.event(event).json())
        try socket.send(tampered)
        guard case .ok(let id, let accepted, let text) = try Self.answer(socket) else {
            Issue.record("\(kind): no OK")
            return
        }
        #expect(id == event.id.hex && !accepted && text.hasPrefix("invalid:"), "\(kind): \(accepted) \(text)")
        try socket.send(ClientMessage.request(subscription: SubscriptionID("back"), filters: [Filter(ids: [event.id.hex])]).json())
        #expect(try Self.answer(socket) == .endOfStoredEvents(SubscriptionID("back")), "\(kind) served a refused event")
    }

    /// A server that dies before printing its URL fails the start with what it said on stderr.
    @Test func aRelayThatPrintsNoURLIsATypedFailureWithItsStderr() async throws {
        await #expect {
            _ = try await RelayProcess.start(executable: "/bin/sh", arguments: ["-c", "echo no port for you >&2; exit 3"], seconds: 5)
        } throws: { error in
            "\(error)".contains("no port for you") && "\(error)".contains("printed no ws://127.0.0.1 URL")
        }
    }

    /// LocalRelay takes no order to refuse protected events, and serves at most 500 per REQ: the
    /// lane reports such scenario relays unsupported rather than running them as something else.
    @Test func localRelayRefusesWhatItCannotDo() {
        #expect(RelayKind.localrelay.unsupported(.init(rejectsProtected: true)) != nil)
        #expect(RelayKind.localrelay.unsupported(.init(maximumResults: 501)) != nil)
        #expect(RelayKind.localrelay.unsupported(.init(maximumResults: 500)) == nil)
        #expect(RelayKind.ours.unsupported(.init(rejectsProtected: true, maximumResults: 10_000)) == nil)
    }
}
