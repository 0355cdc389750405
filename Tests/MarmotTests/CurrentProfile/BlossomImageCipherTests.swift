import ConformanceTestSupport
import HexEncoding
import Marmot
import Testing

/// The current profile's group image bytes (app-components/group-blossom-image-v1.md, "Image
/// bytes"): image_key is the AEAD key itself, the canonical media type is the AAD's tail, and the
/// hash is checked before anything is decrypted. Each refusal has its twin that opens.
@Suite struct BlossomImageCipherTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a tiny picture".utf8)
    static let key = [UInt8](repeating: 7, count: 32)
    static let nonce = [UInt8](repeating: 9, count: 12)
    static let uploadKey = [UInt8](repeating: 3, count: 32)

    @Test func canonicalMediaTypes() throws {
        #expect(try BlossomImageCipher.canonicalMediaType(" Image/PNG ; charset=x") == "image/png")
        #expect(try BlossomImageCipher.canonicalMediaType("image/jpg") == "image/jpeg")
        #expect(try BlossomImageCipher.canonicalMediaType("\timage/webp\r\n") == "image/webp")
        for bad in ["", "png", "/png", "image/", " ; image/png"] {
            #expect(throws: MarmotError(.invalidImage, "")) { try BlossomImageCipher.canonicalMediaType(bad) }
        }
    }

    @Test func sealedBlobIsTheSpecifiedAEAD() throws {
        let sealed = try BlossomImageCipher.seal(
            Self.png, key: Self.key, nonce: Self.nonce, uploadKey: Self.uploadKey, mediaType: "image/png")
        // Computed apart from this code (Python's `cryptography`, ChaCha20Poly1305(key 0x07×32).encrypt(
        // nonce 0x09×12, png, b"marmot-group-image-v1\x00image/png")), and its SHA-256.
        #expect(sealed.blob.hexString == "7529b590e9049fafbc487a51ae9e84a1176d3ef84a62aee4b7e09168266e39c0787f1ebd7eaa")
        #expect(sealed.state.hash.hexString == "f101a7858189dedec3a3d0ed9c4c1f7eb8d9ce244b9d93561b299e1114c43d0f")
        #expect(sealed.state.uploadKey == Self.uploadKey && sealed.state.mediaType == "image/png")
        // The state is a valid 0x8002 component and reads back equal.
        let component = GroupBlossomImage(image: sealed.state)
        #expect(try GroupBlossomImage(bytes: component.encoded()) == component)
    }

    @Test func openChecksHashThenKeyThenMediaType() throws {
        let sealed = try BlossomImageCipher.seal(
            Self.png, key: Self.key, nonce: Self.nonce, uploadKey: Self.uploadKey, mediaType: "image/png")
        let state = sealed.state
        #expect(
            try BlossomImageCipher.open(sealed.blob, hash: state.hash, key: state.key, nonce: state.nonce, mediaType: "IMAGE/PNG")
                == Self.png)
        var flipped = sealed.blob
        flipped[0] ^= 1
        #expect(throws: MarmotError(.imageHashMismatch, "")) {
            try BlossomImageCipher.open(flipped, hash: state.hash, key: state.key, nonce: state.nonce, mediaType: "image/png")
        }
        // The same blob under its own hash but re-labelled as another type does not open: the AAD binds it.
        #expect(throws: MarmotError(.imageUndecryptable, "")) {
            try BlossomImageCipher.open(sealed.blob, hash: state.hash, key: state.key, nonce: state.nonce, mediaType: "image/gif")
        }
        // MIP-01's reader derives its key by HKDF: it cannot open a current-profile blob.
        #expect(throws: MarmotError(.imageUndecryptable, "")) {
            try GroupImageCipher.open(sealed.blob, hash: state.hash, key: state.key, nonce: state.nonce)
        }
    }

    @Test func sealDrawsFreshKeysAndRefusesOtherFormats() throws {
        var generator = TestGenerator(seed: 5)
        let first = try BlossomImageCipher.seal(Self.png, mediaType: "image/png", using: &generator)
        let second = try BlossomImageCipher.seal(Self.png, mediaType: "image/png", using: &generator)
        #expect(first.state.key != second.state.key && first.state.nonce != second.state.nonce)
        #expect(first.state.uploadKey != second.state.uploadKey && first.state.uploadKey != first.state.key)
        #expect(throws: MarmotError(.invalidImage, "")) {
            try BlossomImageCipher.seal(Self.png, mediaType: "image/jpeg", using: &generator)
        }
    }
}
