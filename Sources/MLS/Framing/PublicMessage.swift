import TLSCodec

// struct {
//     FramedContent content;
//     FramedContentAuthData auth;
//     select (PublicMessage.content.sender.sender_type) {
//         case member:
//             MAC membership_tag;
//         case external:
//         case new_member_commit:
//         case new_member_proposal:
//             struct{};
//     };
// } PublicMessage;
/// A signed, unencrypted handshake or application message.
public struct PublicMessage: TLSCodable, Hashable, Sendable {
    public var content: FramedContent
    public var auth: FramedContentAuthData
    /// Present exactly when the sender is a member.
    public var membershipTag: [UInt8]?

    public init(content: FramedContent, auth: FramedContentAuthData, membershipTag: [UInt8]?) {
        self.content = content
        self.auth = auth
        self.membershipTag = membershipTag
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(content)
        auth.encode(to: &writer)
        if let membershipTag { writer.writeOpaque(membershipTag) }
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        content = try reader.read()
        auth = try FramedContentAuthData.decode(contentType: content.content.type, from: &reader)
        if case .member = content.sender { membershipTag = try reader.readOpaque() } else { membershipTag = nil }
    }

    /// The AuthenticatedContent this message carries.
    public var authenticatedContent: AuthenticatedContent {
        AuthenticatedContent(wireFormat: WireFormat.publicMessage, content: content, auth: auth)
    }
}

// struct {
//     opaque group_id<V>;
//     uint64 epoch;
//     ContentType content_type;
//     opaque authenticated_data<V>;
//     opaque encrypted_sender_data<V>;
//     opaque ciphertext<V>;
// } PrivateMessage;
/// An encrypted message whose sender is hidden by sender-data encryption.
public struct PrivateMessage: TLSCodable, Hashable, Sendable {
    public var groupID: [UInt8]
    public var epoch: UInt64
    public var contentType: UInt8
    public var authenticatedData: [UInt8]
    public var encryptedSenderData: [UInt8]
    public var ciphertext: [UInt8]

    public init(
        groupID: [UInt8], epoch: UInt64, contentType: UInt8, authenticatedData: [UInt8],
        encryptedSenderData: [UInt8], ciphertext: [UInt8]
    ) {
        self.groupID = groupID
        self.epoch = epoch
        self.contentType = contentType
        self.authenticatedData = authenticatedData
        self.encryptedSenderData = encryptedSenderData
        self.ciphertext = ciphertext
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        writer.write(epoch)
        writer.write(contentType)
        writer.writeOpaque(authenticatedData)
        writer.writeOpaque(encryptedSenderData)
        writer.writeOpaque(ciphertext)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        contentType = try Content.readType(from: &reader)
        authenticatedData = try reader.readOpaque()
        encryptedSenderData = try reader.readOpaque()
        ciphertext = try reader.readOpaque()
    }
}
