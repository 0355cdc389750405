import ConformanceTestSupport
import Testing

@testable import Nostr

/// Truncated and mutated NIP-44 payloads must be rejected with an error, never a crash, and
/// never decrypt: HMAC covers every byte that survives base64 decoding.
@Suite struct NIP44HostileInputTests {
    /// A valid payload made from fixed keys and a seeded nonce, so every run mutates the same bytes.
    static func validPayload() throws -> (payload: String, key: NIP44.ConversationKey) {
        var generator = TestGenerator(seed: 0x4E49_5034_34)
        let sender = SecretKey.generate(using: &generator)
        let recipient = SecretKey.generate(using: &generator)
        let key = NIP44.ConversationKey(secretKey: sender, publicKey: recipient.publicKey)
        let payload = try NIP44.encrypt("hostile input must never crash a decoder", conversationKey: key, using: &generator)
        return (payload, key)
    }

    @Test func everyProperPrefixIsRejected() throws {
        let (payload, key) = try Self.validPayload()
        let prefixes = Mutations.properPrefixes(of: Array(payload.utf8))
        #expect(prefixes.count == payload.utf8.count)
        for prefix in prefixes {
            #expect(throws: NostrError.self, "prefix of length \(prefix.count)") {
                try NIP44.decrypt(String(decoding: prefix, as: UTF8.self), conversationKey: key)
            }
        }
    }

    @Test func seededMutantsAreRejected() throws {
        let (payload, key) = try Self.validPayload()
        var generator = TestGenerator(seed: 0x6D75_7461_6E74)
        var rejected = 0
        var changed = 0
        for mutant in Mutations.mutants(of: Array(payload.utf8), count: 2_000, using: &generator) {
            // A replacement byte can equal the original; such a mutant is the valid payload itself.
            guard mutant != Array(payload.utf8) else { continue }
            changed += 1
            let text = String(decoding: mutant, as: UTF8.self)
            do {
                let plaintext = try NIP44.decrypt(text, conversationKey: key)
                // A mutation can only survive if it re-encodes the very same bytes, which canonical
                // base64 rules out; anything else that decrypts is a forgery.
                Issue.record("mutant decrypted to \(plaintext.utf8.count) bytes: \(text)")
            } catch {
                rejected += 1
            }
        }
        #expect(changed > 1_900)
        #expect(rejected == changed)
    }

    /// Payloads whose MAC is valid but whose padding is not cannot come from mutation; build them
    /// by encrypting arbitrary padded buffers to reach the padding checks past the MAC.
    @Test func hostileLengthPrefixesAreRejected() throws {
        let key = try NIP44.ConversationKey(bytes: [UInt8](repeating: 9, count: 32))
        let nonce = [UInt8](repeating: 3, count: 32)
        let keys = try NIP44.MessageKeys(conversationKey: key, nonce: nonce)
        let body = [UInt8](repeating: 0x61, count: 32)
        let buffers: [(name: String, padded: [UInt8])] = [
            ("zero length", [0, 0] + body),
            ("length past the buffer", [0xFF, 0xFF] + body),
            ("length needing the next padding step", [0, 33] + body),
            ("buffer longer than the length's padding", [0, 5] + body + body),
            ("two bytes past the padding", [0, 1] + body + [0, 0]),
        ]
        for (name, padded) in buffers {
            let payload = NIP44.Payload(sealing: padded, keys: keys, nonce: nonce).encoded()
            #expect(throws: NostrError(.nip44InvalidPadding, ""), "\(name)") {
                try NIP44.decrypt(payload, conversationKey: key)
            }
        }
        // The control: the same construction with a consistent prefix decrypts.
        let valid = NIP44.Payload(sealing: [0, 31] + body, keys: keys, nonce: nonce).encoded()
        #expect(try NIP44.decrypt(valid, conversationKey: key) == String(repeating: "a", count: 31))
    }

    /// The extended prefix (`00 00` then a u32): a short length in it, a length past our bound, or
    /// one that disagrees with the buffer is refused as padding, with a valid MAC around it.
    @Test func hostileExtendedPrefixesAreRejected() throws {
        let key = try NIP44.ConversationKey(bytes: [UInt8](repeating: 9, count: 32))
        let nonce = [UInt8](repeating: 3, count: 32)
        let keys = try NIP44.MessageKeys(conversationKey: key, nonce: nonce)
        let large = [UInt8](repeating: 0x61, count: 65_536)
        let buffers: [(name: String, padded: [UInt8])] = [
            ("a short length in the extended form", [0, 0, 0, 0, 0, 32] + [UInt8](repeating: 0x61, count: 32)),
            ("a length past our bound", [0, 0, 0x7F, 0xFF, 0xFF, 0xFF] + large),
            ("the largest u32", [0, 0, 0xFF, 0xFF, 0xFF, 0xFF] + large),
            ("buffer one byte past the padding", [0, 0, 0, 1, 0, 0] + large + [0]),
            ("buffer one padding step short", [0, 0, 0, 1, 0, 1] + large + [0]),
        ]
        for (name, padded) in buffers {
            let payload = NIP44.Payload(sealing: padded, keys: keys, nonce: nonce).encoded()
            #expect(throws: NostrError(.nip44InvalidPadding, ""), "\(name)") {
                try NIP44.decrypt(payload, conversationKey: key)
            }
        }
        #expect(throws: NostrError(.nip44InvalidPadding, "")) { try NIP44.Padding.unpad([0, 0, 0, 1]) }
        // The control: a consistent extended prefix decrypts.
        let valid = NIP44.Payload(sealing: [0, 0, 0, 1, 0, 0] + large, keys: keys, nonce: nonce).encoded()
        #expect(try NIP44.decrypt(valid, conversationKey: key) == String(repeating: "a", count: 65_536))
    }
}
