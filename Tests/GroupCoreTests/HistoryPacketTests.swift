import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// History packets are untrusted input: a malformed one, or one whose entry was altered, is refused
/// whole with a typed reason, and mutated bytes never trap.
@Suite struct HistoryPacketTests {
    static let keys: [PublicKey] = {
        var generator = TestGenerator(seed: 4453)
        return (0..<2).map { _ in Keypair.generate(using: &generator).publicKey }
    }()

    static func rumor(_ text: String, at createdAt: UInt64) -> UnsignedEvent {
        UnsignedEvent(pubkey: keys[0], createdAt: createdAt, kind: .chatMessage, tags: [["at", String(createdAt), "1"]], content: text)
    }

    static let sample = HistoryPacket(recipients: [keys[1]], messages: [rumor("hello", at: 100), rumor("second \"quoted\"", at: 101)])

    @Test func roundTripsWithOriginalIDs() throws {
        let parsed = try HistoryPacket(json: Self.sample.json())
        #expect(parsed == Self.sample)
        #expect(parsed.messages.map(\.id) == Self.sample.messages.map(\.id))
    }

    /// An entry whose content changed but whose id stayed is an altered message: refused as such,
    /// and the whole packet with it.
    @Test func refusesAnAlteredEntry() throws {
        let altered = Self.sample.json().replacingOccurrences(of: "hello", with: "HELLO")
        #expect(altered != Self.sample.json())
        do {
            _ = try HistoryPacket(json: altered)
            Issue.record("an altered entry was accepted")
        } catch {
            #expect(error.code == .historyIDMismatch)
        }
    }

    @Test func refusesWhatIsNotItsGrammar() {
        let reaction = UnsignedEvent(pubkey: Self.keys[0], createdAt: 5, kind: 7, content: "+")
        let bad = [
            "", "[]", "{}", #"{"v":2,"for":["\#(Self.keys[1].hex)"],"messages":[]}"#, #"{"v":1,"for":[],"messages":[]}"#,
            #"{"v":1,"for":["zz"],"messages":[]}"#, #"{"v":1,"for":["\#(Self.keys[1].hex)"]}"#,
            #"{"v":1,"for":["\#(Self.keys[1].hex)"],"messages":[{"content":"x"}]}"#,
            HistoryPacket(recipients: [Self.keys[1]], messages: [reaction]).json(),
        ]
        for text in bad {
            do {
                _ = try HistoryPacket(json: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.code == .historyMalformed)
            }
        }
    }

    @Test func survivesHostileMutations() {
        var generator = TestGenerator(seed: 4454)
        let bytes = Array(Self.sample.json().utf8)
        let inputs = Mutations.properPrefixes(of: bytes).map(Array.init) + Mutations.mutants(of: bytes, count: 300, using: &generator)
        for input in inputs {
            do { _ = try HistoryPacket(json: String(decoding: input, as: UTF8.self)) } catch {
                #expect([.historyMalformed, .historyIDMismatch].contains(error.code))
            }
        }
    }
}
