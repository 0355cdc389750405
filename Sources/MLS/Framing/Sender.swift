import TLSCodec

// enum { reserved(0), member(1), external(2), new_member_proposal(3), new_member_commit(4), (255) } SenderType;
//
// struct {
//     SenderType sender_type;
//     select (Sender.sender_type) {
//         case member:              uint32 leaf_index;
//         case external:            uint32 sender_index;
//         case new_member_commit:
//         case new_member_proposal:
//             struct{};
//     };
// } Sender;
/// Who sent a message.
public enum Sender: TLSCodable, Hashable, Sendable {
    case member(leafIndex: UInt32)
    case external(senderIndex: UInt32)
    case newMemberProposal
    case newMemberCommit

    public func encode(to writer: inout TLSWriter) {
        switch self {
        case .member(let leaf):
            writer.write(UInt8(1))
            writer.write(leaf)
        case .external(let index):
            writer.write(UInt8(2))
            writer.write(index)
        case .newMemberProposal: writer.write(UInt8(3))
        case .newMemberCommit: writer.write(UInt8(4))
        }
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        switch try reader.readUInt8() {
        case 1: self = .member(leafIndex: try reader.readUInt32())
        case 2: self = .external(senderIndex: try reader.readUInt32())
        case 3: self = .newMemberProposal
        case 4: self = .newMemberCommit
        case let other: throw unknownValue("sender type", other)
        }
    }
}

// enum { reserved(0), mls_public_message(1), mls_private_message(2), mls_welcome(3),
//        mls_group_info(4), mls_key_package(5), (65535) } WireFormat;
/// WireFormat registry values.
public enum WireFormat {
    public static let publicMessage: UInt16 = 1
    public static let privateMessage: UInt16 = 2
    public static let welcome: UInt16 = 3
    public static let groupInfo: UInt16 = 4
    public static let keyPackage: UInt16 = 5
}
