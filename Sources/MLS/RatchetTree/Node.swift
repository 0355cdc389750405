import TLSCodec

// struct {
//     HPKEPublicKey encryption_key;
//     opaque parent_hash<V>;
//     uint32 unmerged_leaves<V>;
// } ParentNode;
/// An interior node of the ratchet tree.
public struct ParentNode: TLSCodable, Hashable, Sendable {
    public var encryptionKey: [UInt8]
    public var parentHash: [UInt8]
    public var unmergedLeaves: [UInt32]

    public init(encryptionKey: [UInt8], parentHash: [UInt8], unmergedLeaves: [UInt32]) {
        self.encryptionKey = encryptionKey
        self.parentHash = parentHash
        self.unmergedLeaves = unmergedLeaves
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeOpaque(parentHash)
        writer.writeVector(unmergedLeaves)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        encryptionKey = try reader.readOpaque()
        parentHash = try reader.readOpaque()
        unmergedLeaves = try reader.readVector(of: UInt32.self)
    }
}

// enum { reserved(0), leaf(1), parent(2), (255) } NodeType;
//
// struct {
//     NodeType node_type;
//     select (Node.node_type) {
//         case leaf:   LeafNode leaf_node;
//         case parent: ParentNode parent_node;
//     };
// } Node;
/// A non-blank node of the ratchet tree.
public enum Node: TLSCodable, Hashable, Sendable {
    case leaf(LeafNode)
    case parent(ParentNode)

    public func encode(to writer: inout TLSWriter) {
        switch self {
        case .leaf(let leaf):
            writer.write(UInt8(1))
            writer.write(leaf)
        case .parent(let parent):
            writer.write(UInt8(2))
            writer.write(parent)
        }
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        switch try reader.readUInt8() {
        case 1: self = .leaf(try reader.read())
        case 2: self = .parent(try reader.read())
        case let other: throw unknownValue("node type", other)
        }
    }

    /// The node's HPKE public key.
    public var encryptionKey: [UInt8] {
        switch self {
        case .leaf(let leaf): leaf.encryptionKey
        case .parent(let parent): parent.encryptionKey
        }
    }
}

// optional<Node> ratchet_tree<V>;
/// The wire form of a ratchet tree: one optional node per array index, trailing blanks removed.
public struct RatchetTreeNodes: TLSCodable, Hashable, Sendable {
    public var nodes: [Node?]

    public init(nodes: [Node?]) { self.nodes = nodes }

    public func encode(to writer: inout TLSWriter) {
        writer.writeVector { w in for node in nodes { w.writeOptional(node) } }
    }

    /// The widest tree we read: 2^15 leaves, 2^16 - 1 nodes. Marmot groups are chats, and a chat
    /// of 32,768 members is far past any MIP's use; the cap is what bounds the work a Welcome (or a
    /// GroupInfo) can ask of a joiner: a blank slot is one byte on the wire and a whole `Node?` in
    /// memory, and the tree is padded to a full binary tree and hashed node by node after it is
    /// read. RFC 9420 sets no limit; a tree over it is refused as it is read, at the first node past
    /// the cap, so no more than `maxNodes` nodes are ever decoded (docs/receiver-checks.md).
    public static let maxLeaves: UInt32 = 1 << 15
    /// The node count of a full tree of ``maxLeaves`` leaves.
    public static let maxNodes = Int(maxLeaves) * 2 - 1

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        var count = 0
        nodes = try reader.readVector { (r: inout TLSReader) throws(TLSCodecError) in
            count += 1
            guard count <= Self.maxNodes || !ReceiverCheck.treeWidth.isOn else {
                // What was read so far is said, so that the bound on work can be checked from outside.
                throw TLSCodecError(
                    .lengthTooLarge,
                    "the ratchet tree has more than \(Self.maxNodes) nodes (\(Self.maxLeaves) leaves): refused with \(count - 1) decoded, at byte offset \(r.remaining.startIndex)"
                )
            }
            return try r.readOptional(of: Node.self)
        }
    }
}
