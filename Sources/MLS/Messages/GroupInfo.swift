import TLSCodec

// struct {
//     GroupContext group_context;
//     Extension extensions<V>;
//     MAC confirmation_tag;
//     uint32 signer;
//     /* SignWithLabel(., "GroupInfoTBS", GroupInfoTBS) */
//     opaque signature<V>;
// } GroupInfo;
/// What a joiner needs to know about the group, signed by a member.
public struct GroupInfo: TLSCodable, Hashable, Sendable {
    public var groupContext: GroupContext
    public var extensions: [Extension]
    public var confirmationTag: [UInt8]
    public var signer: UInt32
    public var signature: [UInt8]

    public init(
        groupContext: GroupContext, extensions: [Extension], confirmationTag: [UInt8], signer: UInt32,
        signature: [UInt8] = []
    ) {
        self.groupContext = groupContext
        self.extensions = extensions
        self.confirmationTag = confirmationTag
        self.signer = signer
        self.signature = signature
    }

    public func encode(to writer: inout TLSWriter) {
        encodeContent(to: &writer)
        writer.writeOpaque(signature)
    }

    private func encodeContent(to writer: inout TLSWriter) {
        writer.write(groupContext)
        writer.writeVector(extensions)
        writer.writeOpaque(confirmationTag)
        writer.write(signer)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        groupContext = try reader.read()
        extensions = try reader.readExtensions()
        confirmationTag = try reader.readOpaque()
        signer = try reader.readUInt32()
        signature = try reader.readOpaque()
    }

    /// GroupInfoTBS: every field but the signature.
    public var toBeSigned: [UInt8] {
        var w = TLSWriter()
        encodeContent(to: &w)
        return w.bytes
    }

    /// Signs in place.
    public mutating func sign(suite: CipherSuite, privateKey: [UInt8]) throws(MLSError) {
        signature = try suite.signWithLabel(privateKey: privateKey, label: "GroupInfoTBS", content: toBeSigned)
    }

    /// True when the signature verifies under `publicKey` (the signer's leaf key).
    public func verifySignature(suite: CipherSuite, publicKey: [UInt8]) -> Bool {
        suite.verifyWithLabel(publicKey: publicKey, label: "GroupInfoTBS", content: toBeSigned, signature: signature)
    }
}
