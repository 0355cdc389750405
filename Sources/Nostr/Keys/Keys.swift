import CSecp256k1
import ErrorCodes
import HexEncoding

extension NostrError.Code {
    public static let invalidSecretKey = Self("key.invalidSecretKey")
    public static let invalidPublicKey = Self("key.invalidPublicKey")
    public static let invalidHex = Self("key.invalidHex")
}

/// A secp256k1 secret key: 32 bytes, a scalar in [1, n-1].
public struct SecretKey: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Validates `bytes` as a secp256k1 scalar.
    /// - Throws: `NostrError` `.invalidSecretKey` for a wrong length, zero or a value ≥ n.
    public init(bytes: [UInt8]) throws(NostrError) {
        guard bytes.count == 32 else {
            throw NostrError(.invalidSecretKey, "secret key must be 32 bytes, got \(bytes.count)")
        }
        guard secp256k1_ec_seckey_verify(Secp256k1Context.shared.raw, bytes) == 1 else {
            throw NostrError(.invalidSecretKey, "secret key is zero or not below the curve order")
        }
        self.bytes = bytes
    }

    /// Parses 64 hex characters.
    public init(hex: String) throws(NostrError) {
        try self.init(bytes: decodeHex(hex, length: 32, code: .invalidSecretKey))
    }

    /// Draws a key from `generator` (rejection sampling; a seeded generator gives a replayable key).
    public static func generate(using generator: inout some RandomNumberGenerator) -> SecretKey {
        while true {
            var candidate = [UInt8](repeating: 0, count: 32)
            for i in 0..<4 {
                let word = generator.next()
                for j in 0..<8 { candidate[i * 8 + j] = UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64(j))) }
            }
            if let key = try? SecretKey(bytes: candidate) { return key }
        }
    }

    /// The x-only public key (BIP-340).
    public var publicKey: PublicKey { Keypair(secretKey: self).publicKey }

    public var hex: String { bytes.hexString }
    /// Deliberately redacted so keys never leak into logs or traces.
    public var description: String { "SecretKey(…)" }
}

/// A BIP-340 x-only public key: the 32-byte x coordinate of a point with even y.
public struct PublicKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Validates that `bytes` is the x coordinate of a curve point.
    /// - Throws: `NostrError` `.invalidPublicKey`.
    public init(bytes: [UInt8]) throws(NostrError) {
        guard bytes.count == 32 else {
            throw NostrError(.invalidPublicKey, "x-only public key must be 32 bytes, got \(bytes.count)")
        }
        var parsed = secp256k1_xonly_pubkey()
        guard secp256k1_xonly_pubkey_parse(Secp256k1Context.shared.raw, &parsed, bytes) == 1 else {
            throw NostrError(.invalidPublicKey, "not the x coordinate of a secp256k1 point")
        }
        self.bytes = bytes
    }

    /// Parses 64 lower-case hex characters (NIP-01).
    public init(hex: String) throws(NostrError) {
        try self.init(bytes: decodeHex(hex, length: 32, code: .invalidPublicKey))
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    public var hex: String { bytes.hexString }
    public var description: String { hex }
    public static func < (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    var parsed: secp256k1_xonly_pubkey {
        var parsed = secp256k1_xonly_pubkey()
        // Cannot fail: validated in init.
        _ = secp256k1_xonly_pubkey_parse(Secp256k1Context.shared.raw, &parsed, bytes)
        return parsed
    }
}

/// A secret key with its x-only public key, ready to sign.
public struct Keypair: Sendable {
    public let secretKey: SecretKey
    public let publicKey: PublicKey

    public init(secretKey: SecretKey) {
        self.secretKey = secretKey
        var keypair = secp256k1_keypair()
        var xonly = secp256k1_xonly_pubkey()
        var out = [UInt8](repeating: 0, count: 32)
        let ctx = Secp256k1Context.shared.raw
        // Cannot fail for a validated secret key.
        _ = secp256k1_keypair_create(ctx, &keypair, secretKey.bytes)
        _ = secp256k1_keypair_xonly_pub(ctx, &xonly, nil, &keypair)
        _ = secp256k1_xonly_pubkey_serialize(ctx, &out, &xonly)
        publicKey = PublicKey(unchecked: out)
    }

    public static func generate(using generator: inout some RandomNumberGenerator) -> Keypair {
        Keypair(secretKey: .generate(using: &generator))
    }
}

/// Decodes hex of an exact byte length for key-like fields (lower-case only, as NIP-01 requires).
func decodeHex(_ hex: String, length: Int, code: NostrError.Code) throws(NostrError) -> [UInt8] {
    let bytes: [UInt8]
    do {
        bytes = try [UInt8](hex: hex, case: .lowercaseOnly)
    } catch {
        throw NostrError(code, "not lower-case hex (\(error))")
    }
    guard bytes.count == length else {
        throw NostrError(code, "expected \(length * 2) hex characters, got \(hex.utf8.count)")
    }
    return bytes
}
