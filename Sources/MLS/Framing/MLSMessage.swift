import TLSCodec

// struct {
//     ProtocolVersion version = mls10;
//     WireFormat wire_format;
//     select (MLSMessage.wire_format) {
//         case mls_public_message:  PublicMessage public_message;
//         case mls_private_message: PrivateMessage private_message;
//         case mls_welcome:         Welcome welcome;
//         case mls_group_info:      GroupInfo group_info;
//         case mls_key_package:     KeyPackage key_package;
//     };
// } MLSMessage;
/// The outer envelope of everything MLS sends.
public struct MLSMessage: TLSCodable, Hashable, Sendable {
    /// The payload, tagged by wire format.
    public enum Body: Hashable, Sendable {
        case publicMessage(PublicMessage)
        case privateMessage(PrivateMessage)
        case welcome(Welcome)
        case groupInfo(GroupInfo)
        case keyPackage(KeyPackage)

        public var wireFormat: UInt16 {
            switch self {
            case .publicMessage: WireFormat.publicMessage
            case .privateMessage: WireFormat.privateMessage
            case .welcome: WireFormat.welcome
            case .groupInfo: WireFormat.groupInfo
            case .keyPackage: WireFormat.keyPackage
            }
        }
    }

    public var version: UInt16
    public var body: Body

    public init(version: UInt16 = ProtocolVersion.mls10, body: Body) {
        self.version = version
        self.body = body
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(version)
        writer.write(body.wireFormat)
        switch body {
        case .publicMessage(let m): writer.write(m)
        case .privateMessage(let m): writer.write(m)
        case .welcome(let m): writer.write(m)
        case .groupInfo(let m): writer.write(m)
        case .keyPackage(let m): writer.write(m)
        }
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        version = try reader.readUInt16()
        switch try reader.readUInt16() {
        case WireFormat.publicMessage: body = .publicMessage(try reader.read())
        case WireFormat.privateMessage: body = .privateMessage(try reader.read())
        case WireFormat.welcome: body = .welcome(try reader.read())
        case WireFormat.groupInfo: body = .groupInfo(try reader.read())
        case WireFormat.keyPackage: body = .keyPackage(try reader.read())
        case let other: throw unknownValue("wire format", other)
        }
    }
}

extension MLSMessage {
    /// Refuses a message of any protocol version but mls10 (§6): the only version we speak, so a
    /// receiver must not read other versions' bytes as if they were ours.
    /// - Throws: `.unsupportedVersion`.
    public func requireSupportedVersion() throws(MLSError) {
        guard version == ProtocolVersion.mls10 || !ReceiverCheck.messageVersion.isOn else {
            throw MLSError(.unsupportedVersion, "MLSMessage version \(version)")
        }
    }
}
