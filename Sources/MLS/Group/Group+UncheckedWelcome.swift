// Unchecked builders, continued: the flaws of a Welcome's ratchet tree (RFC 9420 §12.4.3.1), each
// applied before the tree is hashed into the GroupInfo and signed, so that a joiner's check of the
// tree itself, not a hash or signature before it, meets the flaw. `package`-only, as the others.

extension Group {
    /// Alters one leaf of the Welcome's tree as a `welcome…` flaw says: the committer's own leaf,
    /// re-signed with its key, or the joiner's, replaced by a stranger's.
    func alterWelcomeLeaf(
        _ tree: inout RatchetTree, _ flaw: CommitFlaw, joiner: UInt32?, using generator: inout some RandomNumberGenerator
    ) throws(MLSError) {
        if flaw == .welcomeForeignLeaf {
            guard let joiner, var leaf = tree.leaf(joiner) else { throw MLSError(.invalidTree, "no joiner leaf to replace") }
            let stranger = try suite.generateSignatureKeyPair(using: &generator)
            leaf.signatureKey = stranger.publicKey
            leaf.credential = .basic(identity: Array("stranger".utf8))
            try leaf.sign(suite: suite, privateKey: stranger.privateKey, groupID: [], leafIndex: 0)
            tree.setNode(TreeMath.nodeIndex(ofLeaf: joiner), .leaf(leaf))
            return
        }
        guard var leaf = tree.leaf(leafIndex) else { throw MLSError(.notAMember, "our leaf is blank") }
        switch flaw {
        case .welcomeLeafSignature:
            leaf.signature[0] ^= 0x01
        case .welcomeLeafKeyReuse:
            guard let joiner, let key = tree.leaf(joiner)?.encryptionKey else { throw MLSError(.invalidTree, "no joiner leaf") }
            leaf.encryptionKey = key
            try leaf.sign(suite: suite, privateKey: signaturePrivateKey, groupID: groupID, leafIndex: leafIndex)
        default:
            leaf.capabilities.credentials = []
            try leaf.sign(suite: suite, privateKey: signaturePrivateKey, groupID: groupID, leafIndex: leafIndex)
        }
        tree.setNode(TreeMath.nodeIndex(ofLeaf: leafIndex), .leaf(leaf))
    }
}

extension RatchetTree {
    /// Removes, from the lowest non-blank parent that lists it, an unmerged leaf that a parent
    /// higher up lists too (the `unmergedLeafDropped` flaw).
    mutating func dropIntermediateUnmergedLeaf() throws(MLSError) {
        for p in stride(from: UInt32(1), to: UInt32(nodes.count), by: 2) {
            guard var lower = parent(at: p) else { continue }
            for leaf in lower.unmergedLeaves {
                let above = TreeMath.directPath(p, leaves: leafCount)
                guard above.contains(where: { parent(at: $0)?.unmergedLeaves.contains(leaf) == true }) else { continue }
                lower.unmergedLeaves.removeAll { $0 == leaf }
                nodes[Int(p)] = .parent(lower)
                return
            }
        }
        throw MLSError(.invalidTree, "no leaf is unmerged at two parents")
    }
}
