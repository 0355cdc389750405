import EngineInterface

// The group image (MIP-01). The core stays sans-I/O: it asks the host to upload and fetch blobs
// (CoreEffect.uploadBlob / fetchBlob) and hears back through CoreInput.blob. Encryption is the
// engine's; the core never sees a key it did not get from the engine.
extension GroupCore {
    /// An admin sets the picture: the engine checks and encrypts it, the blob goes to the store, then
    /// the group data names it in one commit (with the same OK, settling and races as a rename).
    func setImage(_ file: ImageFile, in chatID: String) async {
        guard let chat = writableChat(chatID, needsAdmin: true) else { return }
        let prepared: PreparedGroupImage
        do {
            prepared = try await engine.prepareGroupImage(file.bytes, mimeType: file.mimeType)
        } catch {
            fail(error, during: "preparing the group image", chatID: chatID)
            return
        }
        // Uploaded before the commit goes out, so that no member can read a hash whose blob is not
        // stored yet (the host carries effects out in order).
        emit(.uploadBlob(prepared.encrypted))
        note("image \(prepared.image.hashHex.prefix(8)) uploaded for \(chatID.prefix(8))")
        await commit(.groupData(GroupDataChanges(image: prepared.image), label: "set image"), in: chat)
    }

    /// Asks the blob store for a chat's new image.
    func fetchImage(_ image: GroupImage, of chatID: String) {
        emit(.fetchBlob(hash: image.hashHex))
        changed("image \(image.hashHex.prefix(8)) of \(chatID.prefix(8)) loading")
    }

    /// The store's answer: every chat waiting for this blob opens it with its own engine.
    func received(blob: [UInt8]?, hash: String) async {
        for chatID in chats.keys.sorted() {
            guard let chat = chats[chatID], let image = chat.image, image.hashHex == hash, chat.imageStatus == .loading else {
                continue
            }
            let status: ChatImage.Status
            if let blob {
                do {
                    _ = try await engine.decryptGroupImage(blob, with: image)
                    status = .verified
                } catch  where error.code == .imageHashMismatch {
                    status = .tampered
                } catch  where error.code == .imageUndecryptable {
                    status = .undecryptable
                } catch {
                    // The engine could not answer (not a verdict on the blob): stays loading.
                    fail(error, during: "opening the group image", chatID: chatID)
                    continue
                }
            } else {
                status = .missing
            }
            chats[chatID]?.imageStatus = status
            note("image \(hash.prefix(8)) of \(chatID.prefix(8)): \(status.rawValue)")
            changed("image \(hash.prefix(8)) \(status.rawValue)")
        }
    }
}
