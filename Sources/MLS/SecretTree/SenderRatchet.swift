// One sender's hash ratchet (RFC 9420 §9.1): generation j yields a key and nonce, then the secret
// moves on and the old one is forgotten. Keys of skipped generations are kept, within bounds, so
// messages that arrive out of order still decrypt; each key is usable once.
import ErrorCodes

extension MLSError.Code {
    /// A generation whose key was already used or discarded.
    public static let keyConsumed = Self("mls.keyConsumed")
    /// A generation too far ahead of the ratchet to derive.
    public static let generationTooFar = Self("mls.generationTooFar")
}

/// An AEAD key and nonce for one generation.
package struct RatchetKey: Hashable, Sendable {
    package let generation: UInt32
    package let key: [UInt8]
    package let nonce: [UInt8]
}

/// A hash ratchet for one sender and content kind.
package struct SenderRatchet: Sendable {
    /// How far ahead of the current generation a receiver will derive.
    package static let maximumForwardDistance: UInt32 = 1024
    /// How many skipped keys are kept for out-of-order delivery.
    package static let maximumSkippedKeys = 1024

    // Internal rather than private: SecretTree+Persistence.swift writes and restores them.
    let suite: CipherSuite
    package internal(set) var generation: UInt32 = 0
    var secret: [UInt8]
    /// True once generation UInt32.max has been used: the ratchet cannot move further.
    var exhausted = false
    var skipped: [UInt32: RatchetKey] = [:]

    init(suite: CipherSuite, secret: [UInt8]) {
        self.suite = suite
        self.secret = secret
    }

    /// The key for the next generation, for sending.
    package mutating func next() throws(MLSError) -> RatchetKey {
        try advance()
    }

    /// The key for `target`, for receiving.
    /// - Throws: `.keyConsumed` for a used or forgotten generation, `.generationTooFar` beyond the window.
    package mutating func key(for target: UInt32) throws(MLSError) -> RatchetKey {
        if target < generation || exhausted {
            guard let key = skipped.removeValue(forKey: target) else {
                throw MLSError(.keyConsumed, "generation \(target) already used or discarded")
            }
            return key
        }
        guard target - generation <= Self.maximumForwardDistance else {
            throw MLSError(.generationTooFar, "generation \(target) is more than \(Self.maximumForwardDistance) ahead")
        }
        while generation < target {
            let key = try advance()
            skipped[key.generation] = key
        }
        while skipped.count > Self.maximumSkippedKeys, let oldest = skipped.keys.min() {
            skipped.removeValue(forKey: oldest)
        }
        return try advance()
    }

    private mutating func advance() throws(MLSError) -> RatchetKey {
        guard !exhausted else { throw MLSError(.keyConsumed, "ratchet exhausted") }
        let key = RatchetKey(
            generation: generation,
            key: suite.deriveTreeSecret(secret: secret, label: "key", generation: generation, length: suite.aeadKeyLength),
            nonce: suite.deriveTreeSecret(
                secret: secret, label: "nonce", generation: generation, length: suite.aeadNonceLength))
        secret = suite.deriveTreeSecret(secret: secret, label: "secret", generation: generation, length: suite.hashLength)
        if generation == .max { exhausted = true } else { generation += 1 }
        return key
    }
}
