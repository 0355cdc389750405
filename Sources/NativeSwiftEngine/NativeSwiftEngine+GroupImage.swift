import EngineInterface
import Marmot

// Group images. Encryption draws its seeds and nonce from the engine's generator, so a seeded run
// uploads the same blob every time.
//
// Legacy (MIP-01, Marmot/GroupImages/GroupImageCipher.swift): the upload seed is drawn but not kept:
// MDK 0.8.0's bindings cannot put `image_upload_key` into the group data, and both engines must
// write the same group data (docs/mdk-0.8.0-wire.md, §2).
//
// Current (component 0x8002, app-components/group-blossom-image-v1.md; BlossomImageCipher.swift):
// `image_key` is the AEAD key, the media type is bound as AAD, and the component carries the upload
// key and media type too. The app's `GroupImage` names hash, key and nonce only, so the engine
// keeps the other two of each image it prepared until the commit that sets it.
extension NativeSwiftEngine {
    package func prepareGroupImage(_ data: [UInt8], mimeType: String) async throws(EngineError) -> PreparedGroupImage {
        if profile == .current {
            let sealed = try marmotStep { () throws(MarmotError) in
                try BlossomImageCipher.seal(data, mediaType: mimeType, using: &random)
            }
            guard let image = GroupImage(hash: sealed.state.hash, key: sealed.state.key, nonce: sealed.state.nonce) else {
                throw EngineError(.internal, "sealed image fields have the wrong lengths")
            }
            preparedImages[sealed.state.hash] = sealed.state
            return PreparedGroupImage(encrypted: sealed.blob, image: image)
        }
        let sealed = try marmotStep { () throws(MarmotError) in try GroupImageCipher.seal(data, mimeType: mimeType, using: &random) }
        guard let image = GroupImage(hash: sealed.hash, key: sealed.seed, nonce: sealed.nonce) else {
            throw EngineError(.internal, "sealed image fields have the wrong lengths")
        }
        return PreparedGroupImage(encrypted: sealed.blob, image: image)
    }

    package func decryptGroupImage(_ encrypted: [UInt8], with image: GroupImage) async throws(EngineError) -> [UInt8] {
        if profile == .current {
            guard let mediaType = mediaType(of: image) else {
                throw EngineError(
                    .invalidInput, "no group of this engine names the image \(image.hashHex) (0x8002 binds its media type as AAD)")
            }
            return try marmotStep { () throws(MarmotError) in
                try BlossomImageCipher.open(encrypted, hash: image.hash, key: image.key, nonce: image.nonce, mediaType: mediaType)
            }
        }
        return try marmotStep { () throws(MarmotError) in
            try GroupImageCipher.open(encrypted, hash: image.hash, key: image.key, nonce: image.nonce)
        }
    }

    /// The media type a group's 0x8002 component (or an image we prepared) gives `image`.
    func mediaType(of image: GroupImage) -> String? {
        for id in groups.keys.sorted(by: { $0.hex < $1.hex }) {
            guard let data = groups[id]?.data, data.imageHash == image.hash, data.imageKey == image.key,
                data.imageNonce == image.nonce, let mediaType = data.imageMediaType
            else { continue }
            return mediaType
        }
        guard let prepared = preparedImages[image.hash], prepared.key == image.key, prepared.nonce == image.nonce else { return nil }
        return prepared.mediaType
    }
}
