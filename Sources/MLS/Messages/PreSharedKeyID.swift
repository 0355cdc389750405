import TLSCodec

// enum { reserved(0), external(1), resumption(2), (255) } PSKType;
// enum { reserved(0), application(1), reinit(2), branch(3), (255) } ResumptionPSKUsage;
//
// struct {
//     PSKType psktype;
//     select (PreSharedKeyID.psktype) {
//         case external:
//             opaque psk_id<V>;
//         case resumption:
//             ResumptionPSKUsage usage;
//             opaque psk_group_id<V>;
//             uint64 psk_epoch;
//     };
//     opaque psk_nonce<V>;
// } PreSharedKeyID;
/// Names a pre-shared key injected into the key schedule.
public struct PreSharedKeyID: TLSCodable, Hashable, Sendable {
    /// Which kind of PSK, with the fields that identify it.
    public enum Kind: Hashable, Sendable {
        case external(id: [UInt8])
        case resumption(usage: UInt8, groupID: [UInt8], epoch: UInt64)
    }

    public var kind: Kind
    public var nonce: [UInt8]

    public init(kind: Kind, nonce: [UInt8]) {
        self.kind = kind
        self.nonce = nonce
    }

    public func encode(to writer: inout TLSWriter) {
        switch kind {
        case .external(let id):
            writer.write(UInt8(1))
            writer.writeOpaque(id)
        case .resumption(let usage, let groupID, let epoch):
            writer.write(UInt8(2))
            writer.write(usage)
            writer.writeOpaque(groupID)
            writer.write(epoch)
        }
        writer.writeOpaque(nonce)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        switch try reader.readUInt8() {
        case 1: kind = .external(id: try reader.readOpaque())
        case 2:
            let usage = try reader.readUInt8()
            guard (1...3).contains(usage) else { throw unknownValue("resumption PSK usage", usage) }
            kind = .resumption(usage: usage, groupID: try reader.readOpaque(), epoch: try reader.readUInt64())
        case let other: throw unknownValue("PSK type", other)
        }
        nonce = try reader.readOpaque()
    }
}
