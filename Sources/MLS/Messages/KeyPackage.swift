import TLSCodec

// struct {
//     ProtocolVersion version;
//     CipherSuite cipher_suite;
//     HPKEPublicKey init_key;
//     LeafNode leaf_node;
//     Extension extensions<V>;
//     /* SignWithLabel(., "KeyPackageTBS", KeyPackageTBS) */
//     opaque signature<V>;
// } KeyPackage;
/// A prospective member's published joining material.
public struct KeyPackage: TLSCodable, Hashable, Sendable {
    public var version: UInt16
    public var cipherSuite: UInt16
    public var initKey: [UInt8]
    public var leafNode: LeafNode
    public var extensions: [Extension]
    public var signature: [UInt8]

    public init(
        version: UInt16 = ProtocolVersion.mls10, cipherSuite: UInt16, initKey: [UInt8], leafNode: LeafNode,
        extensions: [Extension], signature: [UInt8] = []
    ) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.initKey = initKey
        self.leafNode = leafNode
        self.extensions = extensions
        self.signature = signature
    }

    public func encode(to writer: inout TLSWriter) {
        encodeContent(to: &writer)
        writer.writeOpaque(signature)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        version = try reader.readUInt16()
        cipherSuite = try reader.readUInt16()
        initKey = try reader.readOpaque()
        leafNode = try reader.read()
        extensions = try reader.readExtensions()
        signature = try reader.readOpaque()
    }

    /// KeyPackageTBS: every field but the signature.
    public var toBeSigned: [UInt8] {
        var w = TLSWriter()
        encodeContent(to: &w)
        return w.bytes
    }

    private func encodeContent(to w: inout TLSWriter) {
        w.write(version)
        w.write(cipherSuite)
        w.writeOpaque(initKey)
        w.write(leafNode)
        w.writeVector(extensions)
    }

    /// MakeKeyPackageRef: RefHash("MLS 1.0 KeyPackage Reference", KeyPackage).
    public func reference(suite: CipherSuite) throws(MLSError) -> [UInt8] {
        suite.refHash(label: "MLS 1.0 KeyPackage Reference", value: try serialize(self))
    }

    /// Signs the key package in place with the leaf's signature private key.
    public mutating func sign(suite: CipherSuite, privateKey: [UInt8]) throws(MLSError) {
        signature = try suite.signWithLabel(privateKey: privateKey, label: "KeyPackageTBS", content: toBeSigned)
    }

    /// True when the signature verifies under the leaf's signature key.
    public func verifySignature(suite: CipherSuite) -> Bool {
        suite.verifyWithLabel(
            publicKey: leafNode.signatureKey, label: "KeyPackageTBS", content: toBeSigned, signature: signature)
    }
}
