import CSodium

/// ChaCha20 (RFC 8439, 96-bit nonce, block counter starting at 0) from libsodium, the stream
/// cipher NIP-44 v2 uses without a Poly1305 tag (it authenticates with HMAC instead).
enum ChaCha20 {
    /// libsodium must be initialised once before use; `sodium_init` is idempotent and thread-safe,
    /// and a lazily initialised global runs it exactly once.
    private static let initialised: Bool = sodium_init() >= 0

    /// XORs `input` with the key stream of (`key`, `nonce`): encryption and decryption alike.
    static func xor(_ input: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(initialised, "sodium_init failed")
        precondition(key.count == 32 && nonce.count == 12, "ChaCha20 needs a 32-byte key and 12-byte nonce")
        var output = [UInt8](repeating: 0, count: input.count)
        // Returns 0 for every input length NIP-44 can produce (far below libsodium's 256 GiB limit).
        _ = crypto_stream_chacha20_ietf_xor(&output, input, UInt64(input.count), nonce, key)
        return output
    }
}
