import ErrorCodes
import HexEncoding
import MLS
import Nostr
import TLSCodec

extension MarmotError.Code {
    /// A leaf without exactly one 0x8009 proof entry in its `app_data_dictionary`.
    package static let proofMissing = Self("identityProof.missing")
    /// A leaf whose `app_components` support list does not name 0x8009.
    package static let proofNotAdvertised = Self("identityProof.notAdvertised")
    /// Proof bytes that are not one valid 104-byte MarmotAuthorizationProof (length, key, timestamp).
    package static let proofMalformed = Self("identityProof.malformed")
    /// A proof signed by an account other than the leaf's credential identity.
    package static let proofSignerMismatch = Self("identityProof.signerMismatch")
    /// A proof whose BIP-340 signature does not verify over the reconstructed kind-450 event.
    package static let proofBadSignature = Self("identityProof.badSignature")
    /// A leaf whose credential is not a basic credential naming a valid x-only account key.
    package static let proofBadCredential = Self("identityProof.badCredential")
}

extension Kind {
    /// The account identity proof v2 signing template: a local event, never published.
    package static let accountIdentityProof: Kind = 450
}

// foundation/authorization-proofs.md (the common envelope; all fields fixed width, 104 bytes):
//
// struct {
//     opaque signer_pubkey[32];   // x-only secp256k1 account key
//     uint64 created_at;          // 1 ... 2^53 - 1
//     opaque signature[64];       // BIP-340 over the NIP-01 id of the owning class's event
// } MarmotAuthorizationProof;
/// A Nostr account's signature over a proof-class event that the verifier rebuilds from context.
package struct AuthorizationProof: Hashable, Sendable {
    package static let length = 104
    package static let maximumCreatedAt: UInt64 = (1 << 53) - 1

    package var signer: PublicKey
    package var createdAt: UInt64
    package var signature: [UInt8]

    package init(signer: PublicKey, createdAt: UInt64, signature: [UInt8]) {
        self.signer = signer
        self.createdAt = createdAt
        self.signature = signature
    }

    /// - Throws: `.proofMalformed` (not 104 bytes, an invalid key, created_at 0 or above 2^53 - 1).
    package init(bytes: [UInt8]) throws(MarmotError) {
        guard bytes.count == Self.length else {
            throw MarmotError(.proofMalformed, "a proof is \(Self.length) bytes, got \(bytes.count)")
        }
        do { signer = try PublicKey(bytes: Array(bytes[0..<32])) } catch {
            throw MarmotError(.proofMalformed, "signer_pubkey is not an x-only secp256k1 key")
        }
        createdAt = bytes[32..<40].reduce(0) { $0 << 8 | UInt64($1) }
        signature = Array(bytes[40..<104])
        guard (1...Self.maximumCreatedAt).contains(createdAt) else {
            throw MarmotError(.proofMalformed, "created_at \(createdAt) is outside 1 ... 2^53 - 1")
        }
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.writeBytes(signer.bytes)
        writer.write(createdAt)
        writer.writeBytes(signature)
        return writer.bytes
    }
}

// app-components/account-identity-proof-v2.md: the kind-450 local signing template.
//
//   pubkey     = hex(signer_pubkey)        created_at = proof.created_at        kind = 450
//   tags       = [["d","marmot.account-identity-proof.v2"], ["component","0x8009"],
//                 ["ciphersuite",<0x%04x>], ["signature_scheme",<0x%04x>],
//                 ["mls_signature_key",<hex of LeafNode.signature_key, no length prefix>]]
//   content    = "Authorize this MLS leaf key for my Marmot account"
/// Account identity proof v2 (component 0x8009): the account named by a leaf's credential
/// authorizes that leaf's MLS signature key.
package enum AccountIdentityProof {
    package static let component = AppComponentID.accountIdentityProof
    package static let dTag = "marmot.account-identity-proof.v2"
    package static let content = "Authorize this MLS leaf key for my Marmot account"

    /// The MLS signature scheme of a ciphersuite (RFC 9420 §17.1), as the template names it.
    /// - Throws: `.proofMalformed` for a suite whose scheme we do not know.
    package static func signatureScheme(of suite: UInt16) throws(MarmotError) -> UInt16 {
        switch suite {
        case 0x0001, 0x0003: 0x0807  // ed25519
        case 0x0002: 0x0403  // ecdsa_secp256r1_sha256
        case 0x0004, 0x0006: 0x0808  // ed448
        case 0x0005: 0x0603  // ecdsa_secp521r1_sha512
        case 0x0007: 0x0503  // ecdsa_secp384r1_sha384
        default: throw MarmotError(.proofMalformed, "ciphersuite \(KeyPackageEvent.hexTag(suite)) has no known signature scheme")
        }
    }

    /// The exact event the account signs.
    /// - Throws: `.proofMalformed` for an unknown suite.
    package static func template(
        signer: PublicKey, createdAt: UInt64, suite: UInt16, signatureKey: [UInt8]
    ) throws(MarmotError) -> UnsignedEvent {
        let scheme = try signatureScheme(of: suite)
        return UnsignedEvent(
            pubkey: signer, createdAt: createdAt, kind: .accountIdentityProof,
            tags: [
                ["d", dTag], ["component", component.hexTag], ["ciphersuite", KeyPackageEvent.hexTag(suite)],
                ["signature_scheme", KeyPackageEvent.hexTag(scheme)],
                ["mls_signature_key", signatureKey.hexString],
            ],
            content: content)
    }

    /// Signs a proof for `signatureKey` with BIP-340 auxiliary randomness `auxRandom` (32 bytes).
    /// - Throws: `.proofMalformed` for a `createdAt` outside 1 ... 2^53 - 1 or an unknown suite.
    package static func create(
        account: Keypair, createdAt: UInt64, suite: UInt16, signatureKey: [UInt8], auxRandom: [UInt8]
    ) throws(MarmotError) -> AuthorizationProof {
        guard (1...AuthorizationProof.maximumCreatedAt).contains(createdAt), auxRandom.count == 32 else {
            throw MarmotError(.proofMalformed, "created_at \(createdAt) is outside 1 ... 2^53 - 1, or aux is not 32 bytes")
        }
        let event = try template(signer: account.publicKey, createdAt: createdAt, suite: suite, signatureKey: signatureKey)
        let signature = try nostr { () throws(NostrError) in
            try Schnorr.sign(message: event.id.bytes, keypair: account, auxRandom: auxRandom)
        }
        return AuthorizationProof(signer: account.publicKey, createdAt: createdAt, signature: signature)
    }

    /// Signs a proof, drawing the BIP-340 auxiliary randomness from `generator`.
    package static func create(
        account: Keypair, createdAt: UInt64, suite: UInt16, signatureKey: [UInt8],
        using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> AuthorizationProof {
        let aux = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return try create(account: account, createdAt: createdAt, suite: suite, signatureKey: signatureKey, auxRandom: aux)
    }

    /// Checks that `proof` is `account`'s signature over the template for `signatureKey` in `suite`.
    /// - Throws: `.proofSignerMismatch`, `.proofBadSignature`, `.proofMalformed`.
    package static func verify(
        _ proof: AuthorizationProof, account: PublicKey, suite: UInt16, signatureKey: [UInt8]
    ) throws(MarmotError) {
        guard proof.signer == account else {
            throw MarmotError(.proofSignerMismatch, "the proof is signed by \(proof.signer.hex), the credential names \(account.hex)")
        }
        let event = try template(signer: proof.signer, createdAt: proof.createdAt, suite: suite, signatureKey: signatureKey)
        guard Schnorr.verify(signature: proof.signature, message: event.id.bytes, publicKey: proof.signer) else {
            throw MarmotError(.proofBadSignature, "the signature does not verify over kind-450 event \(event.id.hex)")
        }
    }
}
