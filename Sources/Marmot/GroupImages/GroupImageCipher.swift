import Crypto
import ErrorCodes

extension MarmotError.Code {
    /// The bytes to upload are not an image of the MIME type named with them.
    package static let invalidImage = Self("groupImage.invalid")
    /// A downloaded blob's SHA-256 is not the group data's `image_hash`.
    package static let imageHashMismatch = Self("groupImage.hashMismatch")
    /// A blob whose hash matched does not open with the group data's key and nonce (neither scheme).
    package static let imageUndecryptable = Self("groupImage.undecryptable")
}

// MIP-01 group image, encryption version 2 (what MDK 0.8.0 writes):
//   seed[32], upload_seed[32], nonce[12]   random
//   key  = HKDF-SHA256-Expand(HKDF-Extract(salt = none, ikm = seed), info = "mip01-image-encryption-v2", 32)
//   blob = ChaCha20-Poly1305(key, nonce, aad = "", image)      ciphertext ‖ tag[16]
//   image_hash = SHA-256(blob), image_key = seed, image_nonce = nonce, image_upload_key = upload_seed
// Version 1 used `image_key` itself as the AEAD key; readers still try it when version 2 fails.
/// Encrypts and decrypts group images for a Blossom-style blob store.
package enum GroupImageCipher {
    static let keyInfo = Array("mip01-image-encryption-v2".utf8)
    static let tagLength = 16

    /// The sealed blob and the group-data fields that open it.
    package struct Sealed: Sendable {
        package let blob: [UInt8]
        package let hash: [UInt8]
        package let seed: [UInt8]
        package let nonce: [UInt8]
        package let uploadSeed: [UInt8]
    }

    /// Checks that `image` is a `mimeType` picture, then encrypts it (version 2) with seeds and nonce
    /// drawn from `generator`, in MDK's order (seed, upload seed, nonce).
    package static func seal(
        _ image: [UInt8], mimeType: String, using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> Sealed {
        try ImageSignature.check(image, mimeType: mimeType)
        let seed = bytes(32, using: &generator)
        let uploadSeed = bytes(32, using: &generator)
        let nonce = bytes(12, using: &generator)
        return try seal(image, seed: seed, nonce: nonce, uploadSeed: uploadSeed)
    }

    /// The deterministic core of `seal(_:mimeType:using:)` (no image check: the caller did it).
    package static func seal(_ image: [UInt8], seed: [UInt8], nonce: [UInt8], uploadSeed: [UInt8]) throws(MarmotError) -> Sealed {
        do {
            let box = try ChaChaPoly.seal(
                image, using: derivedKey(seed), nonce: try ChaChaPoly.Nonce(data: nonce), authenticating: [UInt8]())
            let blob = Array(box.ciphertext) + Array(box.tag)
            return Sealed(blob: blob, hash: Array(SHA256.hash(data: blob)), seed: seed, nonce: nonce, uploadSeed: uploadSeed)
        } catch {
            throw MarmotError(.invalidImage, "ChaCha20-Poly1305 seal failed: \(error)")
        }
    }

    /// The image in `blob`: the hash is checked first, then version 2's derived key, then version 1's
    /// key as given.
    /// - Throws: `.imageHashMismatch`, `.imageUndecryptable`.
    package static func open(_ blob: [UInt8], hash: [UInt8], key: [UInt8], nonce: [UInt8]) throws(MarmotError) -> [UInt8] {
        let actual = Array(SHA256.hash(data: blob))
        guard actual == hash else {
            throw MarmotError(.imageHashMismatch, "the blob's SHA-256 is not the group data's image_hash")
        }
        guard blob.count >= tagLength, key.count == 32, let aeadNonce = try? ChaChaPoly.Nonce(data: nonce) else {
            throw MarmotError(.imageUndecryptable, "a blob of \(blob.count) bytes, key of \(key.count), nonce of \(nonce.count)")
        }
        for candidate in [derivedKey(key), SymmetricKey(data: key)] {
            if let box = try? ChaChaPoly.SealedBox(
                nonce: aeadNonce, ciphertext: blob[..<(blob.count - tagLength)], tag: blob[(blob.count - tagLength)...]),
                let image = try? ChaChaPoly.open(box, using: candidate, authenticating: [UInt8]())
            {
                return Array(image)
            }
        }
        throw MarmotError(.imageUndecryptable, "the blob opens with neither the version 2 nor the version 1 key")
    }

    static func bytes(_ count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func derivedKey(_ seed: [UInt8]) -> SymmetricKey {
        // Extract with no salt (RFC 5869: a hash-length string of zeros), then one Expand block.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: seed), salt: [UInt8]())
        return HKDF<SHA256>.expand(pseudoRandomKey: prk, info: keyInfo, outputByteCount: 32)
    }
}
