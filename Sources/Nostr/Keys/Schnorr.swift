import CSecp256k1
import ErrorCodes

extension NostrError.Code {
    public static let invalidSignatureEncoding = Self("schnorr.invalidSignatureEncoding")
    public static let invalidMessageLength = Self("schnorr.invalidMessageLength")
}

/// BIP-340 Schnorr signatures over 32-byte messages (Nostr signs the event id).
public enum Schnorr {
    /// Signs `message` (32 bytes) with `keypair`; `auxRandom` is BIP-340's auxiliary randomness
    /// (32 bytes), injected so that signatures are reproducible from a seed.
    public static func sign(message: [UInt8], keypair: Keypair, auxRandom: [UInt8]) throws(NostrError) -> [UInt8] {
        guard message.count == 32 else {
            throw NostrError(.invalidMessageLength, "BIP-340 message must be 32 bytes, got \(message.count)")
        }
        precondition(auxRandom.count == 32, "auxRandom must be 32 bytes")
        let ctx = Secp256k1Context.shared.raw
        var raw = secp256k1_keypair()
        _ = secp256k1_keypair_create(ctx, &raw, keypair.secretKey.bytes)
        var signature = [UInt8](repeating: 0, count: 64)
        guard secp256k1_schnorrsig_sign32(ctx, &signature, message, &raw, auxRandom) == 1 else {
            // libsecp256k1 fails here only for an invalid keypair, which Keypair rules out.
            fatalError("secp256k1_schnorrsig_sign32 failed on a valid keypair")
        }
        return signature
    }

    /// Signs with 32 bytes of auxiliary randomness drawn from `generator`.
    public static func sign(
        message: [UInt8], keypair: Keypair, using generator: inout some RandomNumberGenerator
    ) throws(NostrError) -> [UInt8] {
        var aux = [UInt8](repeating: 0, count: 32)
        for i in 0..<32 { aux[i] = UInt8.random(in: 0...255, using: &generator) }
        return try sign(message: message, keypair: keypair, auxRandom: aux)
    }

    /// Verifies a BIP-340 signature. Messages of any length are accepted, as BIP-340 allows.
    public static func verify(signature: [UInt8], message: [UInt8], publicKey: PublicKey) -> Bool {
        guard signature.count == 64 else { return false }
        var key = publicKey.parsed
        return secp256k1_schnorrsig_verify(Secp256k1Context.shared.raw, signature, message, message.count, &key) == 1
    }
}
