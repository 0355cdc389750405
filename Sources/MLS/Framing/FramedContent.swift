import TLSCodec

// enum { reserved(0), application(1), proposal(2), commit(3), (255) } ContentType;
/// The body of a framed message.
public enum Content: Hashable, Sendable {
    case application([UInt8])
    case proposal(Proposal)
    case commit(Commit)

    /// The ContentType value.
    public var type: UInt8 {
        switch self {
        case .application: 1
        case .proposal: 2
        case .commit: 3
        }
    }

    /// Writes the select arm only (the type is written by the enclosing struct, sometimes far away).
    func encodeBody(to writer: inout TLSWriter) {
        switch self {
        case .application(let data): writer.writeOpaque(data)
        case .proposal(let proposal): writer.write(proposal)
        case .commit(let commit): writer.write(commit)
        }
    }

    /// Reads the select arm for content type `type`.
    static func decodeBody(type: UInt8, from reader: inout TLSReader) throws(TLSCodecError) -> Content {
        switch type {
        case 1: return .application(try reader.readOpaque())
        case 2: return .proposal(try reader.read())
        case 3: return .commit(try reader.read())
        default: throw unknownValue("content type", type)
        }
    }

    static func readType(from reader: inout TLSReader) throws(TLSCodecError) -> UInt8 {
        let type = try reader.readUInt8()
        guard (1...3).contains(type) else { throw unknownValue("content type", type) }
        return type
    }
}

// struct {
//     opaque group_id<V>;
//     uint64 epoch;
//     Sender sender;
//     opaque authenticated_data<V>;
//
//     ContentType content_type;
//     select (FramedContent.content_type) {
//         case application: opaque application_data<V>;
//         case proposal:    Proposal proposal;
//         case commit:      Commit commit;
//     };
// } FramedContent;
/// Message content with its framing, before signing.
public struct FramedContent: TLSCodable, Hashable, Sendable {
    public var groupID: [UInt8]
    public var epoch: UInt64
    public var sender: Sender
    public var authenticatedData: [UInt8]
    public var content: Content

    public init(groupID: [UInt8], epoch: UInt64, sender: Sender, authenticatedData: [UInt8], content: Content) {
        self.groupID = groupID
        self.epoch = epoch
        self.sender = sender
        self.authenticatedData = authenticatedData
        self.content = content
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        writer.write(epoch)
        writer.write(sender)
        writer.writeOpaque(authenticatedData)
        writer.write(content.type)
        content.encodeBody(to: &writer)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        sender = try reader.read()
        authenticatedData = try reader.readOpaque()
        content = try Content.decodeBody(type: try reader.readUInt8(), from: &reader)
    }
}

// struct {
//     /* SignWithLabel(., "FramedContentTBS", FramedContentTBS) */
//     opaque signature<V>;
//     select (FramedContent.content_type) {
//         case commit:
//             MAC confirmation_tag;
//         case application:
//         case proposal:
//             struct{};
//     };
// } FramedContentAuthData;
/// The signature, and for commits the confirmation tag.
public struct FramedContentAuthData: Hashable, Sendable {
    public var signature: [UInt8]
    /// Present exactly when the content is a commit.
    public var confirmationTag: [UInt8]?

    public init(signature: [UInt8], confirmationTag: [UInt8]?) {
        self.signature = signature
        self.confirmationTag = confirmationTag
    }

    func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(signature)
        if let confirmationTag { writer.writeOpaque(confirmationTag) }
    }

    static func decode(contentType: UInt8, from reader: inout TLSReader) throws(TLSCodecError) -> Self {
        let signature = try reader.readOpaque()
        let tag = contentType == 3 ? try reader.readOpaque() : nil
        return Self(signature: signature, confirmationTag: tag)
    }
}

// struct {
//     WireFormat wire_format;
//     FramedContent content;
//     FramedContentAuthData auth;
// } AuthenticatedContent;
/// Signed content, independent of how it travels.
public struct AuthenticatedContent: TLSCodable, Hashable, Sendable {
    public var wireFormat: UInt16
    public var content: FramedContent
    public var auth: FramedContentAuthData

    public init(wireFormat: UInt16, content: FramedContent, auth: FramedContentAuthData) {
        self.wireFormat = wireFormat
        self.content = content
        self.auth = auth
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(wireFormat)
        writer.write(content)
        auth.encode(to: &writer)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        wireFormat = try reader.readUInt16()
        content = try reader.read()
        auth = try FramedContentAuthData.decode(contentType: content.content.type, from: &reader)
    }
}
