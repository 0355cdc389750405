import ConformanceTestSupport
import Nostr
import Testing

/// The reverse interop direction: what our code makes, rust-nostr (nostr-sdk in the venv) accepts.
@Suite struct PeerAcceptanceTests {
    struct Verdict: Decodable {
        let ok: Bool
        let id: String?
        let error: String?
    }

    /// Events of every kind class and awkward content, made deterministically by our code.
    static func ourEvents() throws -> [Event] {
        var generator = TestGenerator(seed: 2026)
        let contents = [
            "", "hello", "quote \" backslash \\ \n\r\t\u{08}\u{0C}", "ctl \u{00}\u{01}\u{1F}\u{7F}", "🦫 é ✓",
            String(repeating: "x", count: 10_000),
        ]
        let kinds: [Kind] = [
            .metadata, .textNote, .chatMessage, .keyPackageLegacy, .welcome, .groupEvent, .giftWrap,
            .inboxRelays, .keyPackage, 20001,
        ]
        var events: [Event] = []
        for (i, kind) in kinds.enumerated() {
            let keypair = Keypair.generate(using: &generator)
            let tags: [[String]] = [["d", String(i)], ["h", String(repeating: "ab", count: 32)], ["-"], ["t", "a", "b", ""]]
            let unsigned = UnsignedEvent(
                pubkey: keypair.publicKey, createdAt: 1_700_000_000 + UInt64(i), kind: kind, tags: tags,
                content: contents[i % contents.count])
            events.append(try unsigned.signed(with: keypair, using: &generator))
        }
        return events
    }

    @Test(
        .enabled(
            if: Peers.shouldRun, "peer test: no Python venv at .venv (required when CI is set): run ci/setup to check against rust-nostr"))
    func rustNostrAcceptsOurEvents() async throws {
        let events = try Self.ourEvents()
        let verdicts = try await PythonVenv.verdicts(
            script: "ci/interop/check_events.py", items: events.map { $0.json() }, as: Verdict.self)
        for (event, verdict) in zip(events, verdicts) {
            #expect(verdict.ok, "rust-nostr rejected kind \(event.kind): \(verdict.error ?? "")")
            #expect(verdict.id == event.id.hex)
        }
    }
}
