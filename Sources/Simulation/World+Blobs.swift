import GroupCore

extension World {
    /// Makes the blob store misbehave for every upload from now on (nil: behave again).
    package func setBlobFault(_ fault: BlobFault?) {
        blobStore.fault = fault
        record("fault", "blobs", fault.map { "blob store: \($0.rawValue)" } ?? "blob store: healthy")
    }

    /// The blob stored under `hash` (tests and oracles).
    package func storedBlob(_ hash: String) -> [UInt8]? { blobStore.blob(hash) }

    func uploadBlob(_ bytes: [UInt8], from label: String) {
        let (hash, outcome) = blobStore.upload(bytes)
        record("blob", label, "upload \(hash.prefix(16)) \(bytes.count) bytes: \(outcome)")
    }

    /// Answers every fetch the members asked for, in order; an answer may lead to more (each is fed
    /// like any input, so its effects are carried out too).
    func answerBlobFetches() async {
        while !blobFetches.isEmpty {
            let (label, hash) = blobFetches.removeFirst()
            let blob = blobStore.blob(hash)
            record("blob", label, "fetch \(hash.prefix(16)): \(blob.map { "\($0.count) bytes" } ?? "not found")")
            await feed(.blob(hash: hash, bytes: blob), to: label)
        }
    }
}
