// TreeKEM (RFC 9420 §7.4–7.6): creating an UpdatePath for a committer, merging one into the
// public tree, and recovering the path secret as a receiver.
import ErrorCodes
import TLSCodec

extension MLSError.Code {
    /// An UpdatePath whose shape, keys or leaf do not fit the tree.
    public static let invalidUpdatePath = Self("mls.invalidUpdatePath")
}

/// What a committer learns from creating an UpdatePath.
/// (`package`: it holds the commit secret and private keys.)
package struct CreatedUpdatePath: Sendable {
    package var path: UpdatePath
    package var commitSecret: [UInt8]
    /// The committer's new private keys.
    package var privateKeys: TreePrivateKeys
    /// The path secret of each node on the filtered direct path, for Welcome's GroupSecrets.
    package var pathSecrets: [UInt32: [UInt8]]
}

extension RatchetTree {
    /// Replaces `sender`'s direct path with fresh keys, signs the new leaf, and seals each path
    /// secret to the copath resolutions except the `excluded` (newly added) leaves.
    /// - Parameters:
    ///   - leafNode: the committer's new leaf; its encryption key and source are filled in here.
    ///   - context: builds the provisional GroupContext from the new tree hash.
    ///   - alterLeaf: changes the new leaf just before it is signed (unchecked builders only).
    ///   - alterKeys: changes the path's public keys after the secrets are drawn (unchecked builders only).
    package mutating func createUpdatePath(
        suite: CipherSuite, sender: UInt32, leafNode: LeafNode, signaturePrivateKey: [UInt8], groupID: [UInt8],
        excluded: Set<UInt32>, context: ([UInt8]) -> GroupContext, alterLeaf: (inout LeafNode) -> Void = { _ in },
        alterKeys: (inout [[UInt8]]) -> Void = { _ in }, using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> CreatedUpdatePath {
        let path = filteredDirectPath(of: sender)
        let leafKeys = try suite.deriveKeyPair(secret: suite.randomBytes(suite.hashLength, using: &generator))
        var privateKeys = TreePrivateKeys(leaf: sender, leafPrivateKey: leafKeys.privateKey)
        var secrets: [[UInt8]] = []
        var publicKeys: [[UInt8]] = []
        var secret = suite.randomBytes(suite.hashLength, using: &generator)
        for node in path {
            let pair = try PathSecret.keyPair(suite: suite, pathSecret: secret)
            privateKeys.keys[node] = pair.privateKey
            secrets.append(secret)
            publicKeys.append(pair.publicKey)
            secret = PathSecret.next(suite: suite, secret)
        }
        let commitSecret = secret
        alterKeys(&publicKeys)

        var leaf = leafNode
        leaf.encryptionKey = leafKeys.publicKey
        let leafParentHash = try installPath(suite: suite, sender: sender, path: path, publicKeys: publicKeys)
        leaf.source = .commit(parentHash: leafParentHash)
        alterLeaf(&leaf)
        try leaf.sign(suite: suite, privateKey: signaturePrivateKey, groupID: groupID, leafIndex: sender)
        setNode(TreeMath.nodeIndex(ofLeaf: sender), .leaf(leaf))

        let contextBytes = try serialize(context(treeHash(suite: suite)))
        var nodes: [UpdatePathNode] = []
        for (i, node) in path.enumerated() {
            var sealed: [HPKECiphertext] = []
            for target in resolution(ofCopathChildOf: node, towards: sender, excluding: excluded) {
                guard let key = self[node: target]?.encryptionKey else { continue }
                sealed.append(
                    try suite.encryptWithLabel(
                        publicKey: key, label: "UpdatePathNode", context: contextBytes, plaintext: secrets[i],
                        using: &generator))
            }
            nodes.append(UpdatePathNode(encryptionKey: publicKeys[i], encryptedPathSecrets: sealed))
        }
        return CreatedUpdatePath(
            path: UpdatePath(leafNode: leaf, nodes: nodes), commitSecret: commitSecret, privateKeys: privateKeys,
            pathSecrets: Dictionary(uniqueKeysWithValues: zip(path, secrets)))
    }

    /// Merges a received UpdatePath into the tree (§7.5 as a receiver sees it): checks its shape,
    /// installs the new parent keys with recomputed parent hashes, and checks the leaf vouches for them.
    /// - Throws: `.invalidUpdatePath`, `.invalidParentHash`, `.badSignature`.
    public mutating func merge(
        _ updatePath: UpdatePath, sender: UInt32, suite: CipherSuite, groupID: [UInt8]
    ) throws(MLSError) {
        guard leaf(sender) != nil else { throw MLSError(.invalidUpdatePath, "sender leaf \(sender) is blank") }
        let path = filteredDirectPath(of: sender)
        // §12.4.2: one UpdatePath node per node of the filtered direct path.
        guard path.count == updatePath.nodes.count || !ReceiverCheck.updatePathShape.isOn else {
            throw MLSError(
                .invalidUpdatePath, "\(updatePath.nodes.count) path nodes for a filtered direct path of \(path.count)")
        }
        let claimed: [UInt8]?
        if case .commit(let parentHash) = updatePath.leafNode.source { claimed = parentHash } else { claimed = nil }
        guard claimed != nil || !ReceiverCheck.pathLeafSource.isOn else {
            throw MLSError(.invalidUpdatePath, "UpdatePath leaf must have source commit")
        }
        guard
            updatePath.leafNode.verifySignature(suite: suite, groupID: groupID, leafIndex: sender)
                || !ReceiverCheck.pathLeafSignature.isOn
        else {
            throw MLSError(.badSignature, "UpdatePath leaf signature does not verify")
        }
        let keys = updatePath.nodes.map(\.encryptionKey)
        guard Set(keys + [updatePath.leafNode.encryptionKey]).count == keys.count + 1 || !ReceiverCheck.pathKeysDistinct.isOn else {
            throw MLSError(.invalidUpdatePath, "UpdatePath repeats an encryption key")
        }
        let computed = try installPath(suite: suite, sender: sender, path: path, publicKeys: keys)
        // A leaf of another source claims no parent hash: it cannot match (its source is `pathLeafSource`'s rule).
        guard computed == claimed || !ReceiverCheck.pathParentHash.isOn else {
            throw MLSError(.invalidParentHash, "UpdatePath leaf parent_hash does not match the path")
        }
        setNode(TreeMath.nodeIndex(ofLeaf: sender), .leaf(updatePath.leafNode))
    }

    /// Recovers the path secret sealed to `keys`'s owner in a merged UpdatePath, checks the derived
    /// public keys, and updates `keys` to the new path.
    /// - Returns: the commit secret and the path secret first decrypted.
    package func decryptPath(
        _ updatePath: UpdatePath, sender: UInt32, keys: inout TreePrivateKeys, excluded: Set<UInt32>,
        context: GroupContext, suite: CipherSuite
    ) throws(MLSError) -> (commitSecret: [UInt8], pathSecret: [UInt8]) {
        let path = filteredDirectPath(of: sender)
        let me = TreeMath.nodeIndex(ofLeaf: keys.leaf)
        let shapeChecked = ReceiverCheck.updatePathShape.isOn
        guard path.count == updatePath.nodes.count || !shapeChecked else {
            throw MLSError(.invalidUpdatePath, "\(updatePath.nodes.count) path nodes for a filtered direct path of \(path.count)")
        }
        // Bounds, not rules: with the shape check switched off (tests only) a short path must
        // still fail with a typed error, never trap.
        guard let i = path.firstIndex(where: { TreeMath.isInSubtree(me, of: $0) }), i < updatePath.nodes.count else {
            throw MLSError(.invalidUpdatePath, "no path node covers leaf \(keys.leaf)")
        }
        let resolution = resolution(ofCopathChildOf: path[i], towards: sender, excluding: excluded)
        let sealed = updatePath.nodes[i].encryptedPathSecrets
        // §7.6: one ciphertext per node of the copath child's resolution, in resolution order.
        guard sealed.count == resolution.count || !shapeChecked else {
            throw MLSError(.invalidUpdatePath, "\(sealed.count) ciphertexts for a resolution of \(resolution.count)")
        }
        guard let k = resolution.firstIndex(where: { keys.keys[$0] != nil }), k < sealed.count,
            let privateKey = keys.keys[resolution[k]]
        else { throw MLSError(.invalidUpdatePath, "no private key for the resolution of node \(path[i])") }
        let pathSecret = try suite.decryptWithLabel(
            privateKey: privateKey, label: "UpdatePathNode", context: serialize(context), ciphertext: sealed[k])

        var updated = keys
        for node in TreeMath.directPath(TreeMath.nodeIndex(ofLeaf: sender), leaves: leafCount) {
            updated.keys.removeValue(forKey: node)
        }
        let last = try updated.learn(suite: suite, pathSecret: pathSecret, chain: path[i...])
        for j in i..<path.count {
            guard j < updatePath.nodes.count, let privateKey = updated.keys[path[j]],
                try suite.hpkePublicKey(of: privateKey) == updatePath.nodes[j].encryptionKey || !ReceiverCheck.pathDerivedKeys.isOn
            else { throw MLSError(.invalidUpdatePath, "derived key of node \(path[j]) does not match the UpdatePath") }
        }
        keys = updated
        return (PathSecret.next(suite: suite, last), pathSecret)
    }

    /// The resolution of the child of `node` that does not contain `leaf`, minus excluded leaves.
    func resolution(ofCopathChildOf node: UInt32, towards leaf: UInt32, excluding excluded: Set<UInt32>) -> [UInt32] {
        guard let l = TreeMath.left(node), let r = TreeMath.right(node) else { return [] }
        let copathChild = TreeMath.isInSubtree(TreeMath.nodeIndex(ofLeaf: leaf), of: l) ? r : l
        let excludedNodes = Set(excluded.map(TreeMath.nodeIndex(ofLeaf:)))
        return resolution(of: copathChild).filter { !excludedNodes.contains($0) }
    }

    /// Blanks `sender`'s direct path, installs `publicKeys` on the filtered `path`, and sets parent
    /// hashes top-down. Returns the parent hash the sender's leaf must carry.
    private mutating func installPath(
        suite: CipherSuite, sender: UInt32, path: [UInt32], publicKeys: [[UInt8]]
    ) throws(MLSError) -> [UInt8] {
        blankDirectPath(of: sender)
        for (node, key) in zip(path, publicKeys) {
            setNode(node, .parent(ParentNode(encryptionKey: key, parentHash: [], unmergedLeaves: [])))
        }
        let leafNode = TreeMath.nodeIndex(ofLeaf: sender)
        var childHash: [UInt8] = []
        for (i, node) in path.enumerated().reversed() {
            guard var parent = parent(at: node) else { continue }
            parent.parentHash = childHash
            setNode(node, .parent(parent))
            let below = i == 0 ? leafNode : path[i - 1]
            guard let l = TreeMath.left(node), let r = TreeMath.right(node),
                let hash = parentHash(suite: suite, parent: node, sibling: TreeMath.isInSubtree(below, of: l) ? r : l)
            else { throw MLSError(.invalidUpdatePath, "node \(node) has no children") }
            childHash = hash
        }
        return childHash
    }
}
