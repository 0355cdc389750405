import TLSCodec

// struct {
//     uint64 not_before;
//     uint64 not_after;
// } Lifetime;
/// The validity window of a key package's leaf, in seconds since the epoch.
public struct Lifetime: TLSCodable, Hashable, Sendable {
    public var notBefore: UInt64
    public var notAfter: UInt64

    public init(notBefore: UInt64, notAfter: UInt64) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(notBefore)
        writer.write(notAfter)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        notBefore = try reader.readUInt64()
        notAfter = try reader.readUInt64()
    }
}

// enum { reserved(0), key_package(1), update(2), commit(3), (255) } LeafNodeSource;
/// Where a leaf node came from, with the field each source carries.
public enum LeafNodeSource: Hashable, Sendable {
    case keyPackage(Lifetime)
    case update
    case commit(parentHash: [UInt8])

    var rawValue: UInt8 {
        switch self {
        case .keyPackage: 1
        case .update: 2
        case .commit: 3
        }
    }
}

// struct {
//     HPKEPublicKey encryption_key;
//     SignaturePublicKey signature_key;
//     Credential credential;
//     Capabilities capabilities;
//
//     LeafNodeSource leaf_node_source;
//     select (LeafNode.leaf_node_source) {
//         case key_package:
//             Lifetime lifetime;
//         case update:
//             struct{};
//         case commit:
//             opaque parent_hash<V>;
//     };
//
//     Extension extensions<V>;
//     /* SignWithLabel(., "LeafNodeTBS", LeafNodeTBS) */
//     opaque signature<V>;
// } LeafNode;
/// A member's leaf in the ratchet tree.
public struct LeafNode: TLSCodable, Hashable, Sendable {
    public var encryptionKey: [UInt8]
    public var signatureKey: [UInt8]
    public var credential: Credential
    public var capabilities: Capabilities
    public var source: LeafNodeSource
    public var extensions: [Extension]
    public var signature: [UInt8]

    public init(
        encryptionKey: [UInt8], signatureKey: [UInt8], credential: Credential, capabilities: Capabilities,
        source: LeafNodeSource, extensions: [Extension], signature: [UInt8] = []
    ) {
        self.encryptionKey = encryptionKey
        self.signatureKey = signatureKey
        self.credential = credential
        self.capabilities = capabilities
        self.source = source
        self.extensions = extensions
        self.signature = signature
    }

    public func encode(to writer: inout TLSWriter) {
        encodeContent(to: &writer)
        writer.writeOpaque(signature)
    }

    private func encodeContent(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeOpaque(signatureKey)
        writer.write(credential)
        writer.write(capabilities)
        writer.write(source.rawValue)
        switch source {
        case .keyPackage(let lifetime): writer.write(lifetime)
        case .update: break
        case .commit(let parentHash): writer.writeOpaque(parentHash)
        }
        writer.writeVector(extensions)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        encryptionKey = try reader.readOpaque()
        signatureKey = try reader.readOpaque()
        credential = try reader.read()
        capabilities = try reader.read()
        switch try reader.readUInt8() {
        case 1: source = .keyPackage(try reader.read())
        case 2: source = .update
        case 3: source = .commit(parentHash: try reader.readOpaque())
        case let other: throw unknownValue("leaf node source", other)
        }
        extensions = try reader.readExtensions()
        signature = try reader.readOpaque()
    }

    // struct {
    //     ...the LeafNode fields up to extensions...
    //     select (LeafNodeTBS.leaf_node_source) {
    //         case key_package:
    //             struct{};
    //         case update:
    //             opaque group_id<V>;
    //             uint32 leaf_index;
    //         case commit:
    //             opaque group_id<V>;
    //             uint32 leaf_index;
    //     };
    // } LeafNodeTBS;
    /// The signed content; `groupID` and `leafIndex` are required for update and commit sources.
    public func toBeSigned(groupID: [UInt8], leafIndex: UInt32) -> [UInt8] {
        var w = TLSWriter()
        encodeContent(to: &w)
        if case .keyPackage = source {
        } else {
            w.writeOpaque(groupID)
            w.write(leafIndex)
        }
        return w.bytes
    }

    /// Signs the leaf in place.
    public mutating func sign(
        suite: CipherSuite, privateKey: [UInt8], groupID: [UInt8], leafIndex: UInt32
    ) throws(MLSError) {
        signature = try suite.signWithLabel(
            privateKey: privateKey, label: "LeafNodeTBS", content: toBeSigned(groupID: groupID, leafIndex: leafIndex))
    }

    /// True when the signature verifies under the leaf's own signature key.
    public func verifySignature(suite: CipherSuite, groupID: [UInt8], leafIndex: UInt32) -> Bool {
        suite.verifyWithLabel(
            publicKey: signatureKey, label: "LeafNodeTBS", content: toBeSigned(groupID: groupID, leafIndex: leafIndex),
            signature: signature)
    }
}
