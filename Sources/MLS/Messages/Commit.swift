import TLSCodec

// struct {
//     ProposalOrRef proposals<V>;
//     optional<UpdatePath> path;
// } Commit;
/// Applies proposals and optionally refreshes the committer's path.
public struct Commit: TLSCodable, Hashable, Sendable {
    public var proposals: [ProposalOrRef]
    public var path: UpdatePath?

    public init(proposals: [ProposalOrRef], path: UpdatePath?) {
        self.proposals = proposals
        self.path = path
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(proposals)
        writer.writeOptional(path)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        proposals = try reader.readVector(of: ProposalOrRef.self)
        path = try reader.readOptional(of: UpdatePath.self)
    }
}

// struct {
//     HPKEPublicKey encryption_key;
//     HPKECiphertext encrypted_path_secret<V>;
// } UpdatePathNode;
/// One parent of the committer's direct path: its new public key, and its path secret sealed to
/// each node of the copath resolution.
public struct UpdatePathNode: TLSCodable, Hashable, Sendable {
    public var encryptionKey: [UInt8]
    public var encryptedPathSecrets: [HPKECiphertext]

    public init(encryptionKey: [UInt8], encryptedPathSecrets: [HPKECiphertext]) {
        self.encryptionKey = encryptionKey
        self.encryptedPathSecrets = encryptedPathSecrets
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeVector(encryptedPathSecrets)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        encryptionKey = try reader.readOpaque()
        encryptedPathSecrets = try reader.readVector(of: HPKECiphertext.self)
    }
}

// struct {
//     LeafNode leaf_node;
//     UpdatePathNode nodes<V>;
// } UpdatePath;
/// The committer's new leaf and its filtered direct path.
public struct UpdatePath: TLSCodable, Hashable, Sendable {
    public var leafNode: LeafNode
    public var nodes: [UpdatePathNode]

    public init(leafNode: LeafNode, nodes: [UpdatePathNode]) {
        self.leafNode = leafNode
        self.nodes = nodes
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(leafNode)
        writer.writeVector(nodes)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        leafNode = try reader.read()
        nodes = try reader.readVector(of: UpdatePathNode.self)
    }
}
