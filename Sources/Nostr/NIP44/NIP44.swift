// NIP-44 version 2: versioned, padded, authenticated encryption between two Nostr keys.
//
// https://github.com/nostr-protocol/nips/blob/master/44.md
// Every failure of `decrypt` has its own code so that conformance reports can say which check a
// peer's payload broke; the codes below are grouped by the step that raises them.

import ErrorCodes

extension NostrError.Code {
    /// The payload starts with `#`, the marker NIP-44 reserves for a future, non-base64 encoding.
    public static let nip44UnsupportedVersion = Self("nip44.unsupportedVersion")
    /// The decoded version byte is not 2.
    public static let nip44UnknownVersion = Self("nip44.unknownVersion")
    /// The payload is not canonical, padded base64.
    public static let nip44InvalidBase64 = Self("nip44.invalidBase64")
    /// The payload (or the data it decodes to) is shorter or longer than any v2 payload can be.
    public static let nip44InvalidPayloadLength = Self("nip44.invalidPayloadLength")
    /// The HMAC-SHA256 over nonce and ciphertext does not match.
    public static let nip44InvalidMAC = Self("nip44.invalidMAC")
    /// The decrypted length prefix or zero padding is inconsistent with `calc_padded_len`.
    public static let nip44InvalidPadding = Self("nip44.invalidPadding")
    /// The plaintext is empty or longer than `NIP44.plaintextLengths` allows.
    public static let nip44InvalidPlaintextLength = Self("nip44.invalidPlaintextLength")
    /// The decrypted plaintext is not UTF-8 (NIP-44 encrypts strings).
    public static let nip44InvalidUTF8 = Self("nip44.invalidUTF8")
    /// A nonce or conversation key of the wrong length was supplied.
    public static let nip44InvalidKeyMaterial = Self("nip44.invalidKeyMaterial")
}

/// NIP-44 v2 encryption and decryption.
public enum NIP44 {
    /// The only version this implementation speaks.
    public static let version: UInt8 = 2
    /// Plaintexts of this many bytes or more take the 6-byte extended length prefix (nips PR #1907);
    /// shorter ones keep the 2-byte prefix, so every payload that could be made before is made the
    /// same way, byte for byte.
    public static let extendedPrefixThreshold = 65_536
    /// The plaintext length limits we encrypt and decrypt, in UTF-8 bytes. NIP-44 allows up to
    /// 2^32 - 1 and asks implementations to set their own bound: ours is 1 MiB, eight times the
    /// largest event limit of the relays we model (nostr-rs-relay's 128 KiB), so that a hostile
    /// payload costs at most ~1.4 MB of base64 before it is refused.
    public static let plaintextLengths: ClosedRange<Int> = 1...(1 << 20)
    /// The plaintext lengths NIP-44 v2 allowed before the extended prefix: what a peer that has not
    /// implemented it (rust-nostr 0.45, for one) can decrypt.
    public static let compactPlaintextLengths: ClosedRange<Int> = 1...(extendedPrefixThreshold - 1)

    /// Encrypts `plaintext` with an explicit 32-byte `nonce` (tests and replayable runs inject it).
    /// - Returns: the base64 payload.
    /// - Throws: `.nip44InvalidPlaintextLength` outside `plaintextLengths` (UTF-8 bytes),
    ///   `.nip44InvalidKeyMaterial` for a nonce that is not 32 bytes.
    public static func encrypt(
        _ plaintext: String, conversationKey: ConversationKey, nonce: [UInt8]
    ) throws(NostrError) -> String {
        let keys = try MessageKeys(conversationKey: conversationKey, nonce: nonce)
        return Payload(sealing: try Padding.pad(Array(plaintext.utf8)), keys: keys, nonce: nonce).encoded()
    }

    /// Encrypts `plaintext` with a nonce of 32 bytes drawn from `generator`.
    public static func encrypt(
        _ plaintext: String, conversationKey: ConversationKey, using generator: inout some RandomNumberGenerator
    ) throws(NostrError) -> String {
        var nonce = [UInt8](repeating: 0, count: 32)
        for i in nonce.indices { nonce[i] = UInt8.random(in: 0...255, using: &generator) }
        return try encrypt(plaintext, conversationKey: conversationKey, nonce: nonce)
    }

    /// Encrypts `plaintext` from `sender` to `recipient` with a nonce drawn from `generator`.
    public static func encrypt(
        _ plaintext: String, from sender: SecretKey, to recipient: PublicKey,
        using generator: inout some RandomNumberGenerator
    ) throws(NostrError) -> String {
        try encrypt(plaintext, conversationKey: ConversationKey(secretKey: sender, publicKey: recipient), using: &generator)
    }

    /// Decrypts a base64 payload.
    /// - Throws: a `NostrError` whose code names the failed check: `.nip44UnsupportedVersion`,
    ///   `.nip44InvalidPayloadLength`, `.nip44InvalidBase64`, `.nip44UnknownVersion`, `.nip44InvalidMAC`,
    ///   `.nip44InvalidPadding` or `.nip44InvalidUTF8`.
    public static func decrypt(_ payload: String, conversationKey: ConversationKey) throws(NostrError) -> String {
        let plaintext = try decryptBytes(payload, conversationKey: conversationKey)
        guard let text = String(validating: plaintext, as: UTF8.self) else {
            throw NostrError(.nip44InvalidUTF8, "decrypted plaintext is not valid UTF-8")
        }
        return text
    }

    /// Decrypts a payload sent to `recipient` by `sender`.
    public static func decrypt(_ payload: String, to recipient: SecretKey, from sender: PublicKey) throws(NostrError)
        -> String
    {
        try decrypt(payload, conversationKey: ConversationKey(secretKey: recipient, publicKey: sender))
    }

    /// Decrypts a payload to its raw plaintext bytes, for callers that do not want the UTF-8 check.
    public static func decryptBytes(_ payload: String, conversationKey: ConversationKey) throws(NostrError) -> [UInt8] {
        let decoded = try Payload(decoding: payload)
        let keys = try MessageKeys(conversationKey: conversationKey, nonce: decoded.nonce)
        // The MAC is checked before anything is decrypted, so a forged payload learns nothing from padding errors.
        guard keys.isValid(mac: decoded.mac, nonce: decoded.nonce, ciphertext: decoded.ciphertext) else {
            throw NostrError(.nip44InvalidMAC, "HMAC-SHA256 over nonce and ciphertext does not match")
        }
        let padded = ChaCha20.xor(decoded.ciphertext, key: keys.chachaKey, nonce: keys.chachaNonce)
        return try Padding.unpad(padded)
    }
}
