import Crypto

extension NIP44 {
    /// The per-message keys: `HKDF-Expand(conversation_key, info: nonce, L: 76)` split as
    /// chacha_key (32) ‖ chacha_nonce (12) ‖ hmac_key (32).
    public struct MessageKeys: Hashable, Sendable {
        public let chachaKey: [UInt8]
        public let chachaNonce: [UInt8]
        public let hmacKey: [UInt8]

        /// Derives the keys for one 32-byte `nonce`.
        /// - Throws: `.nip44InvalidKeyMaterial` for a nonce that is not 32 bytes.
        public init(conversationKey: ConversationKey, nonce: [UInt8]) throws(NostrError) {
            guard nonce.count == 32 else {
                throw NostrError(.nip44InvalidKeyMaterial, "nonce must be 32 bytes, got \(nonce.count)")
            }
            let expanded = HKDF<SHA256>.expand(
                pseudoRandomKey: conversationKey.bytes, info: nonce, outputByteCount: 76
            ).withUnsafeBytes { Array($0) }
            chachaKey = Array(expanded[0..<32])
            chachaNonce = Array(expanded[32..<44])
            hmacKey = Array(expanded[44..<76])
        }

        /// `HMAC-SHA256(hmac_key, nonce ‖ ciphertext)`: the nonce is the associated data.
        func authenticationCode(nonce: [UInt8], ciphertext: [UInt8]) -> [UInt8] {
            Array(HMAC<SHA256>.authenticationCode(for: nonce + ciphertext, using: SymmetricKey(data: hmacKey)))
        }

        /// Checks `mac` in constant time (swift-crypto's `isValidAuthenticationCode` compares without early exit).
        func isValid(mac: [UInt8], nonce: [UInt8], ciphertext: [UInt8]) -> Bool {
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: nonce + ciphertext, using: SymmetricKey(data: hmacKey)
            )
        }
    }
}
