import ConformanceTestSupport
import Foundation
import Nostr
import Testing

/// The reverse interop direction: what our code makes, rust-nostr (nostr-sdk in the venv) accepts.
@Suite struct PeerAcceptanceTests {
    struct Verdicts: Decodable {
        struct Item: Decodable { let ok: Bool; let id: String?; let error: String? }
        let results: [Item]
    }

    /// Events of every kind class and awkward content, made deterministically by our code.
    static func ourEvents() throws -> [Event] {
        var generator = TestGenerator(seed: 2026)
        let contents = ["", "hello", "quote \" backslash \\ \n\r\t\u{08}\u{0C}", "ctl \u{00}\u{01}\u{1F}\u{7F}", "🦫 é ✓",
                        String(repeating: "x", count: 10_000)]
        let kinds: [Kind] = [.metadata, .textNote, .chatMessage, .keyPackageLegacy, .welcome, .groupEvent, .giftWrap,
                             .inboxRelays, .keyPackage, 20001]
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

    @Test func rustNostrAcceptsOurEvents() throws {
        let events = try Self.ourEvents()
        let input = try JSONEncoder().encode(events.map { $0.json() })
        let result: PythonVenv.Result
        do {
            result = try PythonVenv.run(script: "ci/interop/check_events.py", input: input)
        } catch let unavailable as PythonVenv.Unavailable {
            print("PeerAcceptanceTests skipped: \(unavailable)")
            return
        }
        #expect(result.status == 0, "check_events.py failed: \(result.stderr)")
        let verdicts = try JSONDecoder().decode(Verdicts.self, from: result.stdout)
        #expect(verdicts.results.count == events.count)
        for (event, verdict) in zip(events, verdicts.results) {
            #expect(verdict.ok, "rust-nostr rejected kind \(event.kind): \(verdict.error ?? "")")
            #expect(verdict.id == event.id.hex)
        }
    }
}
