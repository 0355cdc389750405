import ErrorCodes
import TLSCodec

// struct {
//     select (PrivateMessage.content_type) {
//         case application: opaque application_data<V>;
//         case proposal:    Proposal proposal;
//         case commit:      Commit commit;
//     };
//     FramedContentAuthData auth;
//     opaque padding[length_of_padding];
// } PrivateMessageContent;
//
// struct {
//     opaque group_id<V>;
//     uint64 epoch;
//     ContentType content_type;
//     opaque authenticated_data<V>;
// } PrivateContentAAD;
//
// struct {
//     uint32 leaf_index;
//     uint32 generation;
//     opaque reuse_guard[4];
// } SenderData;
//
// struct {
//     opaque group_id<V>;
//     uint64 epoch;
//     ContentType content_type;
// } SenderDataAAD;

extension MLSError.Code {
    /// Padding of a PrivateMessageContent held a non-zero byte.
    public static let badPadding = Self("mls.badPadding")
    /// A message that cannot travel this way (e.g. a non-member sender in a PrivateMessage).
    public static let invalidSender = Self("mls.invalidSender")
}

extension PrivateMessage {
    /// Encrypts signed member content under the sender's next ratchet key.
    /// - Parameters:
    ///   - paddingLength: zero bytes appended to the content to hide its length.
    ///   - paddingByte: what the padding is made of; anything but zero breaks §6.3.1 on purpose
    ///     (unchecked builders, Group+Unchecked.swift).
    ///   - generator: draws the 4-byte reuse guard.
    package static func protect(
        _ content: AuthenticatedContent, suite: CipherSuite, secretTree: inout SecretTree,
        senderDataSecret: [UInt8], paddingLength: Int = 0, paddingByte: UInt8 = 0,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> PrivateMessage {
        guard case .member(let leaf) = content.content.sender else {
            throw MLSError(.invalidSender, "only members send PrivateMessages")
        }
        let framed = content.content
        let type = framed.content.type
        let key = try secretTree.nextKey(leaf: leaf, ratchet: type == 1 ? .application : .handshake)
        let reuseGuard = suite.randomBytes(4, using: &generator)

        var plaintext = TLSWriter()
        framed.content.encodeBody(to: &plaintext)
        content.auth.encode(to: &plaintext)
        plaintext.writeBytes(repeatElement(paddingByte, count: max(0, paddingLength)))
        let ciphertext = try suite.seal(
            key: key.key, nonce: applyReuseGuard(key.nonce, reuseGuard),
            aad: contentAAD(framed.groupID, framed.epoch, type, framed.authenticatedData), plaintext: plaintext.bytes)

        var senderData = TLSWriter()
        senderData.write(leaf)
        senderData.write(key.generation)
        senderData.writeBytes(reuseGuard)
        let sd = suite.senderDataKeyAndNonce(senderDataSecret: senderDataSecret, ciphertext: ciphertext)
        let encryptedSenderData = try suite.seal(
            key: sd.key, nonce: sd.nonce, aad: senderDataAAD(framed.groupID, framed.epoch, type),
            plaintext: senderData.bytes)
        return PrivateMessage(
            groupID: framed.groupID, epoch: framed.epoch, contentType: type, authenticatedData: framed.authenticatedData,
            encryptedSenderData: encryptedSenderData, ciphertext: ciphertext)
    }

    /// Decrypts the sender data and the content; the caller verifies the signature with the
    /// sender's key from its tree.
    /// - Throws: `.decryptionFailed`, `.keyConsumed`, `.generationTooFar`, `.badPadding`, `.malformed`.
    package func unprotect(
        suite: CipherSuite, secretTree: inout SecretTree, senderDataSecret: [UInt8]
    ) throws(MLSError) -> AuthenticatedContent {
        let sd = suite.senderDataKeyAndNonce(senderDataSecret: senderDataSecret, ciphertext: ciphertext)
        let senderBytes = try suite.open(
            key: sd.key, nonce: sd.nonce, aad: Self.senderDataAAD(groupID, epoch, contentType),
            ciphertext: encryptedSenderData)
        var senderReader = TLSReader(senderBytes)
        let leaf: UInt32
        let generation: UInt32
        let reuseGuard: [UInt8]
        do {
            leaf = try senderReader.readUInt32()
            generation = try senderReader.readUInt32()
            reuseGuard = Array(try senderReader.readBytes(4))
            try senderReader.finish()
        } catch { throw MLSError(error) }

        let key = try secretTree.key(
            leaf: leaf, ratchet: contentType == 1 ? .application : .handshake, generation: generation)
        let plaintext = try suite.open(
            key: key.key, nonce: Self.applyReuseGuard(key.nonce, reuseGuard),
            aad: Self.contentAAD(groupID, epoch, contentType, authenticatedData), ciphertext: ciphertext)

        var reader = TLSReader(plaintext)
        let body: Content
        let auth: FramedContentAuthData
        do {
            body = try Content.decodeBody(type: contentType, from: &reader)
            auth = try FramedContentAuthData.decode(contentType: contentType, from: &reader)
        } catch { throw MLSError(error) }
        guard reader.remaining.allSatisfy({ $0 == 0 }) || !ReceiverCheck.padding.isOn else {
            throw MLSError(.badPadding, "non-zero byte in PrivateMessageContent padding")
        }
        let framed = FramedContent(
            groupID: groupID, epoch: epoch, sender: .member(leafIndex: leaf), authenticatedData: authenticatedData,
            content: body)
        return AuthenticatedContent(wireFormat: WireFormat.privateMessage, content: framed, auth: auth)
    }

    private static func applyReuseGuard(_ nonce: [UInt8], _ reuseGuard: [UInt8]) -> [UInt8] {
        var out = nonce
        for i in 0..<min(4, out.count, reuseGuard.count) { out[i] ^= reuseGuard[i] }
        return out
    }

    private static func contentAAD(_ groupID: [UInt8], _ epoch: UInt64, _ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(groupID)
        w.write(epoch)
        w.write(type)
        w.writeOpaque(data)
        return w.bytes
    }

    private static func senderDataAAD(_ groupID: [UInt8], _ epoch: UInt64, _ type: UInt8) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(groupID)
        w.write(epoch)
        w.write(type)
        return w.bytes
    }
}
