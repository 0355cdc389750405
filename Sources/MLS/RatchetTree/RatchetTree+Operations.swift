// Applying Add, Update and Remove to the tree (RFC 9420 §12.1.1–12.1.3, §7.7–7.8).

extension RatchetTree {
    /// Adds a leaf at the leftmost blank slot, doubling the tree when it is full, and records it
    /// as unmerged in every non-blank parent above it.
    /// - Returns: the new member's leaf index.
    @discardableResult
    public mutating func add(_ leafNode: LeafNode) -> UInt32 {
        let leaf: UInt32
        if let blank = (0..<leafCount).first(where: { self.leaf($0) == nil }) {
            leaf = blank
        } else {
            leaf = leafCount
            nodes += Array(repeating: nil, count: nodes.count + 1)
        }
        setNode(TreeMath.nodeIndex(ofLeaf: leaf), .leaf(leafNode))
        for p in TreeMath.directPath(TreeMath.nodeIndex(ofLeaf: leaf), leaves: leafCount) {
            if case .parent(var parent) = self[node: p] {
                parent.unmergedLeaves.append(leaf)
                setNode(p, .parent(parent))
            }
        }
        return leaf
    }

    /// Replaces `leaf`'s node and blanks its direct path.
    public mutating func update(leaf: UInt32, with leafNode: LeafNode) throws(MLSError) {
        guard self.leaf(leaf) != nil else { throw MLSError(.invalidLeafIndex, "update of blank leaf \(leaf)") }
        setNode(TreeMath.nodeIndex(ofLeaf: leaf), .leaf(leafNode))
        blankDirectPath(of: leaf)
    }

    /// Blanks `leaf` and its direct path, then drops the right half of the tree while it is empty.
    public mutating func remove(leaf: UInt32) throws(MLSError) {
        // Under the same switch as the proposal-list rule (§12.1.3), so that switching it off lets
        // a Remove of a blank leaf through; an index past the tree stays refused (bounds, not a rule).
        guard self.leaf(leaf) != nil || (!ReceiverCheck.removeBlankLeaf.isOn && leaf < leafCount) else {
            throw MLSError(.invalidLeafIndex, "removal of blank leaf \(leaf)")
        }
        setNode(TreeMath.nodeIndex(ofLeaf: leaf), nil)
        blankDirectPath(of: leaf)
        truncate()
    }

    private mutating func truncate() {
        while leafCount > 1, (leafCount / 2..<leafCount).allSatisfy({ self.leaf($0) == nil }) {
            nodes.removeLast(nodes.count / 2 + 1)
        }
    }
}
