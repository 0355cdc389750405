import CSecp256k1
import Crypto

extension NIP44 {
    /// The long-term key shared by two Nostr identities:
    /// `HKDF-Extract(salt: "nip44-v2", ikm: x-coordinate of ECDH(secret, public))`.
    ///
    /// It is symmetric: A's secret with B's public key gives the same key as B's secret with A's.
    public struct ConversationKey: Hashable, Sendable {
        public let bytes: [UInt8]

        /// Wraps 32 bytes of an already derived conversation key.
        /// - Throws: `.nip44InvalidKeyMaterial` unless `bytes` is 32 bytes long.
        public init(bytes: [UInt8]) throws(NostrError) {
            guard bytes.count == 32 else {
                throw NostrError(.nip44InvalidKeyMaterial, "conversation key must be 32 bytes, got \(bytes.count)")
            }
            self.bytes = bytes
        }

        /// Derives the conversation key of `secretKey` and `publicKey`.
        public init(secretKey: SecretKey, publicKey: PublicKey) {
            let prk = HKDF<SHA256>.extract(
                inputKeyMaterial: SymmetricKey(data: Self.sharedX(secretKey: secretKey, publicKey: publicKey)),
                salt: Array("nip44-v2".utf8)
            )
            bytes = Array(prk)
        }

        /// Derives the conversation key from raw key bytes, validating both keys first.
        /// - Throws: `.invalidSecretKey` or `.invalidPublicKey` (the codes of `SecretKey` and `PublicKey`).
        public init(secretKeyBytes: [UInt8], publicKeyBytes: [UInt8]) throws(NostrError) {
            self.init(secretKey: try SecretKey(bytes: secretKeyBytes), publicKey: try PublicKey(bytes: publicKeyBytes))
        }

        /// The raw x coordinate of `secretKey · P`, where P is the even-y point of `publicKey`.
        /// NIP-44 uses it unhashed, so libsecp256k1's default SHA-256 ECDH hash is replaced by a copy.
        private static func sharedX(secretKey: SecretKey, publicKey: PublicKey) -> [UInt8] {
            let ctx = Secp256k1Context.shared.raw
            var point = secp256k1_pubkey()
            // Cannot fail: PublicKey already checked that its x is on the curve, so 02‖x parses.
            _ = secp256k1_ec_pubkey_parse(ctx, &point, [0x02] + publicKey.bytes, 33)
            let copyX: secp256k1_ecdh_hash_function = { output, x32, _, _ in
                guard let output, let x32 else { return 0 }
                output.update(from: x32, count: 32)
                return 1
            }
            var shared = [UInt8](repeating: 0, count: 32)
            // Cannot fail: the secret key is a valid scalar and the curve has prime order,
            // so the product is never the point at infinity.
            _ = secp256k1_ecdh(ctx, &shared, &point, secretKey.bytes, copyX, nil)
            return shared
        }
    }
}
