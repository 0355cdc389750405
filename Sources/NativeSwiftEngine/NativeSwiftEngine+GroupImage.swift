import EngineInterface
import Marmot

// MIP-01 group images (Marmot/GroupImages/GroupImageCipher.swift): encryption draws its seeds and
// nonce from the engine's generator, so a seeded run uploads the same blob every time. The upload
// seed is drawn but not kept: MDK 0.8.0's bindings cannot put `image_upload_key` into the group data,
// and both engines must write the same group data (docs/mdk-0.8.0-wire.md, §2).
extension NativeSwiftEngine {
    package func prepareGroupImage(_ data: [UInt8], mimeType: String) async throws(EngineError) -> PreparedGroupImage {
        let sealed = try marmotStep { () throws(MarmotError) in try GroupImageCipher.seal(data, mimeType: mimeType, using: &random) }
        guard let image = GroupImage(hash: sealed.hash, key: sealed.seed, nonce: sealed.nonce) else {
            throw EngineError(.internal, "sealed image fields have the wrong lengths")
        }
        return PreparedGroupImage(encrypted: sealed.blob, image: image)
    }

    package func decryptGroupImage(_ encrypted: [UInt8], with image: GroupImage) async throws(EngineError) -> [UInt8] {
        try marmotStep { () throws(MarmotError) in
            try GroupImageCipher.open(encrypted, hash: image.hash, key: image.key, nonce: image.nonce)
        }
    }
}
