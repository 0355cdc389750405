import Crypto
import Nostr

// The current profile's group image (app-components/group-blossom-image-v1.md, "Image bytes"):
//
//   aad            = "marmot-group-image-v1" || 0x00 || media_type      (no length prefixes)
//   encrypted_blob = ChaCha20-Poly1305(key = image_key, nonce = image_nonce, plaintext, aad)   ciphertext ‖ tag[16]
//   image_hash     = SHA-256(encrypted_blob)
//   image_upload_key = the secret key of a fresh Nostr keypair (the Blossom write credential)
//
// Unlike MIP-01's version 2 (GroupImageCipher), `image_key` is the AEAD key itself (no HKDF from a
// seed) and the media type is bound as AAD, so a blob cannot be re-labelled as another type.
/// Encrypts and decrypts current-profile (0x8002) group images.
package enum BlossomImageCipher {
    static let label = Array("marmot-group-image-v1".utf8)
    static let tagLength = 16

    /// The canonical media type (features/encrypted-media.md, "Media Type Canonicalization"): the
    /// part before the first `;`, ASCII whitespace trimmed, ASCII lower-cased, `image/jpg` read as
    /// `image/jpeg`.
    /// - Throws: `.invalidImage` when the result is empty or has no `/` between two non-empty parts.
    package static func canonicalMediaType(_ mediaType: String) throws(MarmotError) -> String {
        let bytes = Array(mediaType.utf8)
        let head = bytes.prefix { $0 != UInt8(ascii: ";") }
        let isSpace: (UInt8) -> Bool = { [0x09, 0x0A, 0x0C, 0x0D, 0x20].contains($0) }
        let trimmed = head.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        let lowered = trimmed.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        guard let slash = lowered.firstIndex(of: UInt8(ascii: "/")), slash > 0, slash < lowered.count - 1,
            let text = String(validating: lowered, as: UTF8.self)
        else {
            throw MarmotError(.invalidImage, "media type `\(mediaType)` is not a MIME type")
        }
        return text == "image/jpg" ? "image/jpeg" : text
    }

    /// The AAD of an image of `mediaType` (already canonical).
    static func aad(_ mediaType: String) -> [UInt8] { label + [0x00] + Array(mediaType.utf8) }

    /// Checks that `image` is a picture of `mediaType`, then encrypts it under a fresh key, nonce and
    /// upload keypair drawn from `generator` (in that order).
    /// - Throws: `.invalidImage` for an unsupported type or bytes of another format.
    package static func seal(
        _ image: [UInt8], mediaType: String, using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> (blob: [UInt8], state: GroupBlossomImage.Image) {
        let canonical = try canonicalMediaType(mediaType)
        try ImageSignature.check(image, mimeType: canonical)
        let key = GroupImageCipher.bytes(32, using: &generator)
        let nonce = GroupImageCipher.bytes(12, using: &generator)
        let upload = Keypair.generate(using: &generator)
        return try seal(image, key: key, nonce: nonce, uploadKey: upload.secretKey.bytes, mediaType: canonical)
    }

    /// The deterministic core of `seal(_:mediaType:using:)`; `mediaType` must be canonical.
    package static func seal(
        _ image: [UInt8], key: [UInt8], nonce: [UInt8], uploadKey: [UInt8], mediaType: String
    ) throws(MarmotError) -> (blob: [UInt8], state: GroupBlossomImage.Image) {
        do {
            let box = try ChaChaPoly.seal(
                image, using: SymmetricKey(data: key), nonce: try ChaChaPoly.Nonce(data: nonce), authenticating: aad(mediaType))
            let blob = Array(box.ciphertext) + Array(box.tag)
            let state = GroupBlossomImage.Image(
                hash: Array(SHA256.hash(data: blob)), key: key, nonce: nonce, uploadKey: uploadKey, mediaType: mediaType)
            return (blob, state)
        } catch {
            throw MarmotError(.invalidImage, "ChaCha20-Poly1305 seal failed: \(error)")
        }
    }

    /// The image in `blob`. The hash is checked before anything is decrypted (a fetching client
    /// MUST); the AAD is rebuilt from the canonical form of the stored media type.
    /// - Throws: `.imageHashMismatch`, `.imageUndecryptable`.
    package static func open(
        _ blob: [UInt8], hash: [UInt8], key: [UInt8], nonce: [UInt8], mediaType: String
    ) throws(MarmotError) -> [UInt8] {
        guard Array(SHA256.hash(data: blob)) == hash else {
            throw MarmotError(.imageHashMismatch, "the blob's SHA-256 is not the component's image_hash")
        }
        guard blob.count >= tagLength, key.count == 32, let aeadNonce = try? ChaChaPoly.Nonce(data: nonce),
            let canonical = try? canonicalMediaType(mediaType),
            let box = try? ChaChaPoly.SealedBox(
                nonce: aeadNonce, ciphertext: blob[..<(blob.count - tagLength)], tag: blob[(blob.count - tagLength)...]),
            let image = try? ChaChaPoly.open(box, using: SymmetricKey(data: key), authenticating: aad(canonical))
        else {
            throw MarmotError(.imageUndecryptable, "the blob does not open with image_key, image_nonce and the media type's AAD")
        }
        return Array(image)
    }
}
