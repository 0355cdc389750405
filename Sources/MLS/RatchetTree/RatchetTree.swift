// The ratchet tree of RFC 9420 §7: a left-balanced binary tree in array form (§4.2), with leaves
// at even indices and parents at odd ones. Internally the array always spans a full tree of
// 2^d leaves; the wire form (§12.4.3.3) drops trailing blank nodes.
import ErrorCodes
import TLSCodec

extension MLSError.Code {
    /// A ratchet tree whose shape or node kinds are invalid.
    public static let invalidTree = Self("mls.invalidTree")
    /// A ratchet tree wider than ``RatchetTreeNodes/maxNodes`` (issue 30, N5).
    public static let treeTooWide = Self("mls.treeTooWide")
}

/// A group's public ratchet tree.
public struct RatchetTree: Hashable, Sendable {
    /// One slot per node of the full tree; nil is a blank node.
    public internal(set) var nodes: [Node?]

    /// The number of leaf slots (a power of two).
    public var leafCount: UInt32 { UInt32((nodes.count + 1) / 2) }

    /// A one-member tree.
    public init(firstLeaf: LeafNode) { nodes = [.leaf(firstLeaf)] }

    /// Rebuilds the tree from its wire form.
    /// - Throws: `.invalidTree` when empty, when the last node is blank, or when a node sits at an
    ///   index of the other kind.
    public init(wire: RatchetTreeNodes) throws(MLSError) {
        let count = wire.nodes.count
        guard count > 0, count % 2 == 1, wire.nodes[count - 1] != nil else {
            throw MLSError(.invalidTree, "the tree must have an odd number of nodes ending in a non-blank one")
        }
        for (index, node) in wire.nodes.enumerated() {
            switch node {
            case .leaf where index % 2 == 1: throw MLSError(.invalidTree, "leaf node at parent index \(index)")
            case .parent where index % 2 == 0: throw MLSError(.invalidTree, "parent node at leaf index \(index)")
            default: continue
            }
        }
        var width = 1
        while width < count { width = width * 2 + 1 }
        nodes = wire.nodes + Array(repeating: nil, count: width - count)
        // Unmerged leaves must be non-blank leaves below the parent that lists them (§7.9.2 relies on it).
        for p in stride(from: 1, to: nodes.count, by: 2) {
            guard let parent = parent(at: UInt32(p)) else { continue }
            for leaf in parent.unmergedLeaves {
                guard leaf < leafCount, self.leaf(leaf) != nil,
                    TreeMath.isInSubtree(TreeMath.nodeIndex(ofLeaf: leaf), of: UInt32(p))
                else { throw MLSError(.invalidTree, "parent \(p) lists unmerged leaf \(leaf) outside its subtree") }
                try requireListedBelow(leaf, up: UInt32(p))
            }
        }
    }

    /// RFC 9420 §12.4.3.1 (a joiner's check of the tree): every non-blank parent between an
    /// unmerged leaf and the parent `top` that lists it lists it too; a leaf added after a parent
    /// got its key is unmerged at every non-blank parent above it.
    private func requireListedBelow(_ leaf: UInt32, up top: UInt32) throws(MLSError) {
        guard ReceiverCheck.unmergedLeaves.isOn else { return }
        for node in TreeMath.directPath(TreeMath.nodeIndex(ofLeaf: leaf), leaves: leafCount) {
            if node == top { return }
            if let between = parent(at: node), !between.unmergedLeaves.contains(leaf) {
                throw MLSError(.invalidTree, "parent \(node) below \(top) does not list unmerged leaf \(leaf)")
            }
        }
    }

    /// Decodes and rebuilds a tree from `optional<Node> ratchet_tree<V>` bytes.
    public init(bytes: [UInt8]) throws(MLSError) {
        let wire: RatchetTreeNodes
        do throws(TLSCodecError) { wire = try RatchetTreeNodes(tlsBytes: bytes) } catch {
            // A vector longer than its reader allows, here the width cap: said as such.
            throw error.code == .lengthTooLarge ? MLSError(.treeTooWide, error.reason) : MLSError(error)
        }
        try self.init(wire: wire)
    }

    /// The wire form, without trailing blanks.
    public var wire: RatchetTreeNodes {
        var trimmed = nodes[...]
        while let last = trimmed.last, last == nil { trimmed = trimmed.dropLast() }
        return RatchetTreeNodes(nodes: Array(trimmed))
    }

    /// The root's node index.
    public var root: UInt32 { TreeMath.root(leafCount) }

    /// The node at `index`, nil when blank or out of range.
    public subscript(node index: UInt32) -> Node? {
        Int(index) < nodes.count ? nodes[Int(index)] : nil
    }

    /// The leaf node of `leaf`, nil when blank or out of range.
    public func leaf(_ leaf: UInt32) -> LeafNode? {
        guard leaf < leafCount, case .leaf(let node) = nodes[Int(leaf) * 2] else { return nil }
        return node
    }

    /// The parent node at node index `index`, nil when blank.
    public func parent(at index: UInt32) -> ParentNode? {
        guard case .parent(let node) = self[node: index] else { return nil }
        return node
    }

    /// The indices of the non-blank leaves.
    public var occupiedLeaves: [UInt32] { (0..<leafCount).filter { leaf($0) != nil } }

    /// The resolution of node `x` (§4.1.1): the minimal set of non-blank nodes covering its subtree,
    /// with the unmerged leaves of non-blank parents.
    public func resolution(of x: UInt32) -> [UInt32] {
        switch self[node: x] {
        case .leaf: return [x]
        case .parent(let p): return [x] + p.unmergedLeaves.map(TreeMath.nodeIndex(ofLeaf:))
        case nil:
            guard let l = TreeMath.left(x), let r = TreeMath.right(x) else { return [] }
            return resolution(of: l) + resolution(of: r)
        }
    }

    /// The filtered direct path of `leaf` (§4.1.2): its direct path without the parents whose
    /// copath child has an empty resolution.
    public func filteredDirectPath(of leaf: UInt32) -> [UInt32] {
        let x = TreeMath.nodeIndex(ofLeaf: leaf)
        return zip(TreeMath.directPath(x, leaves: leafCount), TreeMath.copath(x, leaves: leafCount))
            .filter { !resolution(of: $0.1).isEmpty }
            .map(\.0)
    }

    mutating func setNode(_ index: UInt32, _ node: Node?) {
        nodes[Int(index)] = node
    }

    /// Blanks every node on the direct path of `leaf`.
    mutating func blankDirectPath(of leaf: UInt32) {
        for p in TreeMath.directPath(TreeMath.nodeIndex(ofLeaf: leaf), leaves: leafCount) { setNode(p, nil) }
    }
}
