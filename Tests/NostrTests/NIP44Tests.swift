import ConformanceTestSupport
import Crypto
import Foundation
import HexEncoding
import Nostr
import Testing

// Mirrors of vectors/nip44/nip44.vectors.json (v2) and vectors/nostr-sdk-0.45.1/nip44.json.
struct NIP44VectorFile: Decodable {
    let v2: V2
    struct V2: Decodable {
        let valid: Valid
        let invalid: Invalid
    }
    struct Valid: Decodable {
        let get_conversation_key: [ConversationKeyCase]
        let get_message_keys: MessageKeysCases
        let calc_padded_len: [[Int]]
        let encrypt_decrypt: [EncryptDecryptCase]
        let encrypt_decrypt_long_msg: [LongMessageCase]
    }
    struct Invalid: Decodable {
        let encrypt_msg_lengths: [Int]
        let get_conversation_key: [InvalidConversationKeyCase]
        let decrypt: [InvalidDecryptCase]
    }
    struct ConversationKeyCase: Decodable, Sendable { let sec1, pub2, conversation_key: String }
    struct MessageKeysCases: Decodable {
        let conversation_key: String
        let keys: [MessageKeysCase]
    }
    struct MessageKeysCase: Decodable, Sendable { let nonce, chacha_key, chacha_nonce, hmac_key: String }
    struct EncryptDecryptCase: Decodable, Sendable {
        let sec1, sec2, conversation_key, nonce, plaintext, payload: String
    }
    struct LongMessageCase: Decodable, Sendable {
        let conversation_key, nonce, pattern, plaintext_sha256, payload_sha256: String
        let `repeat`: Int
    }
    struct InvalidConversationKeyCase: Decodable, Sendable { let sec1, pub2, note: String }
    struct InvalidDecryptCase: Decodable, Sendable { let conversation_key, nonce, plaintext, payload, note: String }

    static func load() throws -> NIP44VectorFile {
        try Vectors.decode(NIP44VectorFile.self, from: "nip44/nip44.vectors.json")
    }
}

struct RustNostrNIP44File: Decodable {
    let nip44_v2: [Item]
    struct Item: Decodable, Sendable {
        let sender_secret_hex, sender_pubkey_hex, recipient_secret_hex, recipient_pubkey_hex: String
        let plaintext, payload: String
    }

    static func load() throws -> RustNostrNIP44File {
        try Vectors.decode(RustNostrNIP44File.self, from: "nostr-sdk-0.45.1/nip44.json")
    }
}

private func bytes(_ hex: String) throws -> [UInt8] { try [UInt8](hex: hex) }

private func sha256Hex(_ data: [UInt8]) -> String { Array(SHA256.hash(data: data)).hexString }

@Suite struct NIP44Tests {
    typealias V = NIP44VectorFile

    @Test(arguments: try V.load().v2.valid.get_conversation_key)
    func conversationKey(_ c: V.ConversationKeyCase) throws {
        let key = try NIP44.ConversationKey(secretKeyBytes: bytes(c.sec1), publicKeyBytes: bytes(c.pub2))
        #expect(key.bytes.hexString == c.conversation_key)
    }

    @Test(arguments: try V.load().v2.valid.get_message_keys.keys)
    func messageKeys(_ c: V.MessageKeysCase) throws {
        let conversationKey = try NIP44.ConversationKey(bytes: bytes(V.load().v2.valid.get_message_keys.conversation_key))
        let keys = try NIP44.MessageKeys(conversationKey: conversationKey, nonce: bytes(c.nonce))
        #expect(keys.chachaKey.hexString == c.chacha_key)
        #expect(keys.chachaNonce.hexString == c.chacha_nonce)
        #expect(keys.hmacKey.hexString == c.hmac_key)
    }

    @Test func paddedLengths() throws {
        for pair in try V.load().v2.valid.calc_padded_len {
            #expect(NIP44.Padding.paddedLength(pair[0]) == pair[1], "calc_padded_len(\(pair[0]))")
        }
    }

    @Test(arguments: try V.load().v2.valid.encrypt_decrypt)
    func encryptDecrypt(_ c: V.EncryptDecryptCase) throws {
        let sec1 = try SecretKey(hex: c.sec1), sec2 = try SecretKey(hex: c.sec2)
        let key = NIP44.ConversationKey(secretKey: sec1, publicKey: sec2.publicKey)
        #expect(key.bytes.hexString == c.conversation_key)
        // The conversation key is symmetric: the recipient derives the same one.
        #expect(NIP44.ConversationKey(secretKey: sec2, publicKey: sec1.publicKey) == key)
        #expect(try NIP44.encrypt(c.plaintext, conversationKey: key, nonce: bytes(c.nonce)) == c.payload)
        #expect(try NIP44.decrypt(c.payload, to: sec2, from: sec1.publicKey) == c.plaintext)
    }

    @Test(arguments: try V.load().v2.valid.encrypt_decrypt_long_msg)
    func encryptDecryptLongMessage(_ c: V.LongMessageCase) throws {
        let plaintext = String(repeating: c.pattern, count: c.repeat)
        #expect(sha256Hex(Array(plaintext.utf8)) == c.plaintext_sha256)
        let key = try NIP44.ConversationKey(bytes: bytes(c.conversation_key))
        let payload = try NIP44.encrypt(plaintext, conversationKey: key, nonce: bytes(c.nonce))
        #expect(sha256Hex(Array(payload.utf8)) == c.payload_sha256)
        #expect(try NIP44.decrypt(payload, conversationKey: key) == plaintext)
    }

    @Test(arguments: try V.load().v2.invalid.encrypt_msg_lengths)
    func encryptRejectsLength(_ length: Int) throws {
        let key = try NIP44.ConversationKey(bytes: [UInt8](repeating: 7, count: 32))
        let plaintext = String(repeating: "a", count: length)
        #expect(throws: NostrError(.nip44InvalidPlaintextLength, "")) {
            try NIP44.encrypt(plaintext, conversationKey: key, nonce: [UInt8](repeating: 1, count: 32))
        }
    }

    /// The spec's limit is 65,535 bytes, both ways (rust-nostr stops at 65,408; see findings).
    @Test func acceptsSpecMaximumPlaintext() throws {
        let key = try NIP44.ConversationKey(bytes: [UInt8](repeating: 7, count: 32))
        let plaintext = String(repeating: "z", count: 65_535)
        let payload = try NIP44.encrypt(plaintext, conversationKey: key, nonce: [UInt8](repeating: 1, count: 32))
        #expect(try NIP44.decrypt(payload, conversationKey: key) == plaintext)
    }

    @Test(arguments: try V.load().v2.invalid.get_conversation_key)
    func conversationKeyRejects(_ c: V.InvalidConversationKeyCase) throws {
        // Each note names the key at fault; the error code must agree with it.
        let expected: NostrError.Code = c.note.hasPrefix("sec1") ? .invalidSecretKey : .invalidPublicKey
        let sec1 = try bytes(c.sec1), pub2 = try bytes(c.pub2)
        #expect(throws: NostrError(expected, "")) {
            try NIP44.ConversationKey(secretKeyBytes: sec1, publicKeyBytes: pub2)
        }
    }

    /// The vector notes, mapped to the code each failure must carry.
    static func expectedCode(forNote note: String) -> NostrError.Code? {
        switch note {
        case "unknown encryption version": return .nip44UnsupportedVersion
        case "unknown encryption version 0": return .nip44UnknownVersion
        case "invalid base64": return .nip44InvalidBase64
        case "invalid MAC": return .nip44InvalidMAC
        case "invalid padding": return .nip44InvalidPadding
        case _ where note.hasPrefix("invalid payload length"): return .nip44InvalidPayloadLength
        default: return nil
        }
    }

    @Test(arguments: try V.load().v2.invalid.decrypt)
    func decryptRejects(_ c: V.InvalidDecryptCase) throws {
        let code = try #require(Self.expectedCode(forNote: c.note), "unmapped vector note '\(c.note)'")
        let key = try NIP44.ConversationKey(bytes: bytes(c.conversation_key))
        #expect(throws: NostrError(code, "")) { try NIP44.decrypt(c.payload, conversationKey: key) }
    }

    @Test(arguments: try RustNostrNIP44File.load().nip44_v2)
    func decryptsRustNostrPayload(_ item: RustNostrNIP44File.Item) throws {
        let recipient = try SecretKey(hex: item.recipient_secret_hex)
        let sender = try SecretKey(hex: item.sender_secret_hex)
        #expect(recipient.publicKey.hex == item.recipient_pubkey_hex)
        #expect(sender.publicKey.hex == item.sender_pubkey_hex)
        #expect(try NIP44.decrypt(item.payload, to: recipient, from: sender.publicKey) == item.plaintext)
        // And the sender can read its own message: the key is shared.
        #expect(try NIP44.decrypt(item.payload, to: sender, from: recipient.publicKey) == item.plaintext)
    }

    @Test func seededEncryptionIsReplayable() throws {
        let item = try #require(RustNostrNIP44File.load().nip44_v2.first)
        let sender = try SecretKey(hex: item.sender_secret_hex)
        let recipient = try PublicKey(hex: item.recipient_pubkey_hex)
        var first = TestGenerator(seed: 44), second = TestGenerator(seed: 44)
        let a = try NIP44.encrypt("replay me", from: sender, to: recipient, using: &first)
        let b = try NIP44.encrypt("replay me", from: sender, to: recipient, using: &second)
        #expect(a == b)
        var other = TestGenerator(seed: 45)
        #expect(try NIP44.encrypt("replay me", from: sender, to: recipient, using: &other) != a)
    }

    @Test func rejectsWrongSizedKeyMaterial() throws {
        #expect(throws: NostrError(.nip44InvalidKeyMaterial, "")) { try NIP44.ConversationKey(bytes: [1, 2, 3]) }
        let key = try NIP44.ConversationKey(bytes: [UInt8](repeating: 7, count: 32))
        #expect(throws: NostrError(.nip44InvalidKeyMaterial, "")) {
            try NIP44.encrypt("x", conversationKey: key, nonce: [UInt8](repeating: 1, count: 31))
        }
    }
}
