// Tree hashes (RFC 9420 §7.8) and parent hashes (§7.9).
import ErrorCodes
import TLSCodec

extension MLSError.Code {
    /// A parent hash in the tree or in an UpdatePath does not match.
    public static let invalidParentHash = Self("mls.invalidParentHash")
}

extension RatchetTree {
    // struct {
    //     NodeType node_type;
    //     select (TreeHashInput.node_type) {
    //         case leaf:   LeafNodeHashInput leaf_node;
    //         case parent: ParentNodeHashInput parent_node;
    //     };
    // } TreeHashInput;
    //
    // struct {
    //     uint32 leaf_index;
    //     optional<LeafNode> leaf_node;
    // } LeafNodeHashInput;
    //
    // struct {
    //     optional<ParentNode> parent_node;
    //     opaque left_hash<V>;
    //     opaque right_hash<V>;
    // } ParentNodeHashInput;
    /// The tree hash of the subtree rooted at `x`. Leaves in `excluding` are hashed as blank and
    /// removed from parents' unmerged lists, which gives the "original sibling tree hash".
    public func treeHash(suite: CipherSuite, of x: UInt32, excluding: Set<UInt32> = []) -> [UInt8] {
        var w = TLSWriter()
        if let l = TreeMath.left(x), let r = TreeMath.right(x) {
            w.write(UInt8(2))
            var node = parent(at: x)
            node?.unmergedLeaves.removeAll { excluding.contains($0) }
            w.writeOptional(node)
            w.writeOpaque(treeHash(suite: suite, of: l, excluding: excluding))
            w.writeOpaque(treeHash(suite: suite, of: r, excluding: excluding))
        } else {
            let leafIndex = x / 2
            w.write(UInt8(1))
            w.write(leafIndex)
            w.writeOptional(excluding.contains(leafIndex) ? nil : leaf(leafIndex))
        }
        return suite.hash(w.bytes)
    }

    /// The root tree hash.
    public func treeHash(suite: CipherSuite) -> [UInt8] { treeHash(suite: suite, of: root) }

    // struct {
    //     HPKEPublicKey encryption_key;
    //     opaque parent_hash<V>;
    //     opaque original_sibling_tree_hash<V>;
    // } ParentHashInput;
    /// The parent hash that a child of parent `p` must carry, where `sibling` is `p`'s other child.
    func parentHash(suite: CipherSuite, parent p: UInt32, sibling: UInt32) -> [UInt8]? {
        guard let node = parent(at: p) else { return nil }
        var w = TLSWriter()
        w.writeOpaque(node.encryptionKey)
        w.writeOpaque(node.parentHash)
        w.writeOpaque(treeHash(suite: suite, of: sibling, excluding: Set(node.unmergedLeaves)))
        return suite.hash(w.bytes)
    }

    /// The parent_hash field of node `x` (a commit-sourced leaf or a parent); nil otherwise.
    private func storedParentHash(_ x: UInt32) -> [UInt8]? {
        switch self[node: x] {
        case .parent(let p): return p.parentHash
        case .leaf(let l):
            if case .commit(let hash) = l.source { return hash }
            return nil
        case nil: return nil
        }
    }

    /// Checks that every non-blank parent is parent-hash valid (§7.9.2): some node D in the
    /// resolution of one child carries the parent's hash, and the rest of that resolution is
    /// exactly the parent's unmerged leaves under that child.
    /// - Throws: `.invalidParentHash` naming the first parent that no descendant vouches for.
    public func verifyParentHashes(suite: CipherSuite) throws(MLSError) {
        for p in stride(from: UInt32(1), to: UInt32(nodes.count), by: 2) {
            guard let parent = parent(at: p), let l = TreeMath.left(p), let r = TreeMath.right(p) else { continue }
            let valid = [(l, r), (r, l)].contains { child, sibling in
                guard let expected = parentHash(suite: suite, parent: p, sibling: sibling) else { return false }
                let res = resolution(of: child)
                guard let d = res.first(where: { storedParentHash($0) == expected }) else { return false }
                let unmergedBelow = Set(
                    parent.unmergedLeaves.map(TreeMath.nodeIndex(ofLeaf:)).filter { TreeMath.isInSubtree($0, of: child) })
                return Set(res.filter { $0 != d }) == unmergedBelow
            }
            guard valid else { throw MLSError(.invalidParentHash, "parent node \(p) is not parent-hash valid") }
        }
    }

    /// Checks every leaf's signature, with `groupID` as context for update and commit sources.
    /// - Throws: `.badSignature` naming the first bad leaf.
    public func verifyLeafSignatures(suite: CipherSuite, groupID: [UInt8]) throws(MLSError) {
        for index in 0..<leafCount {
            guard let node = leaf(index) else { continue }
            guard node.verifySignature(suite: suite, groupID: groupID, leafIndex: index) else {
                throw MLSError(.badSignature, "leaf \(index) signature does not verify")
            }
        }
    }
}
