import ConformanceTestSupport
import Nostr
import Testing

/// Untrusted event JSON must produce an error value, never a crash (fixed seeds, so failures replay).
@Suite struct HostileEventInputTests {
    static let seeds: [UInt64] = [1, 2, 3, 4]

    @Test func everyProperPrefixOfAValidEventIsRejected() throws {
        for vector in try RustNostrEvents.load().filter(\.valid) {
            let bytes = Array(vector.event_json.utf8)
            for prefix in Mutations.properPrefixes(of: bytes) {
                #expect(throws: NostrError.self) { try Event(json: String(decoding: prefix, as: UTF8.self)) }
            }
        }
    }

    @Test(arguments: seeds)
    func randomMutationsNeverCrashAndRarelyVerify(seed: UInt64) throws {
        var generator = TestGenerator(seed: seed)
        var accepted = 0
        var total = 0
        for vector in try RustNostrEvents.load().filter(\.valid) {
            let original = try Event(json: vector.event_json)
            for mutant in Mutations.mutants(of: Array(vector.event_json.utf8), count: 250, using: &generator) {
                total += 1
                // Decoding must return; when it does succeed, the event must be the same signed event
                // (only whitespace-like or escape-equivalent edits can survive id and signature checks).
                if let event = try? Event(json: String(decoding: mutant, as: UTF8.self)) {
                    accepted += 1
                    #expect(event == original)
                }
            }
        }
        #expect(total == 2_500)
        #expect(accepted < total / 10)
    }

    @Test(arguments: seeds)
    func randomBytesNeverCrashTheJSONParser(seed: UInt64) {
        var generator = TestGenerator(seed: seed)
        let alphabet = Array("{}[]\",:\\0123456789-+.eEtruefalsn \u{01}".utf8)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] : UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? JSONValue(parsing: bytes)
        }
    }
}
