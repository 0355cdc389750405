import TLSCodec

// struct {
//     ProtocolVersion version = mls10;
//     CipherSuite cipher_suite;
//     opaque group_id<V>;
//     uint64 epoch;
//     opaque tree_hash<V>;
//     opaque confirmed_transcript_hash<V>;
//     Extension extensions<V>;
// } GroupContext;
/// The shared state every member of an epoch agrees on; it feeds the key schedule.
public struct GroupContext: TLSCodable, Hashable, Sendable {
    public var version: UInt16
    public var cipherSuite: UInt16
    public var groupID: [UInt8]
    public var epoch: UInt64
    public var treeHash: [UInt8]
    public var confirmedTranscriptHash: [UInt8]
    public var extensions: [Extension]

    public init(
        version: UInt16 = ProtocolVersion.mls10, cipherSuite: UInt16, groupID: [UInt8], epoch: UInt64,
        treeHash: [UInt8], confirmedTranscriptHash: [UInt8], extensions: [Extension]
    ) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.groupID = groupID
        self.epoch = epoch
        self.treeHash = treeHash
        self.confirmedTranscriptHash = confirmedTranscriptHash
        self.extensions = extensions
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(version)
        writer.write(cipherSuite)
        writer.writeOpaque(groupID)
        writer.write(epoch)
        writer.writeOpaque(treeHash)
        writer.writeOpaque(confirmedTranscriptHash)
        writer.writeVector(extensions)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        version = try reader.readUInt16()
        cipherSuite = try reader.readUInt16()
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        treeHash = try reader.readOpaque()
        confirmedTranscriptHash = try reader.readOpaque()
        extensions = try reader.readExtensions()
    }
}
