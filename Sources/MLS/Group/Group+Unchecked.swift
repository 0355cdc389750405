// Unchecked builders: messages that are valid up to exactly one receiver check and break that one
// (RFC 9420's MUST-reject rules), for conformance attacks and negative tests. They skip the
// sender-side checks of the honest paths (a removed or reinitialized member may still build) and
// are `package`: nothing outside this package can reach them.
import TLSCodec

/// What a commit (or the Welcome it produces) gets wrong on purpose.
package enum CommitFlaw: Sendable, Hashable {
    /// The commit's confirmation tag (§6.1) is off by one bit.
    case confirmationTag
    /// The GroupInfo signature (§12.4.3) is off by one bit.
    case groupInfoSignature
    /// The GroupInfo's tree_hash differs from the ratchet tree it carries (§12.4.3.1); the
    /// GroupInfo is otherwise consistent (re-signed, its confirmation tag recomputed).
    case treeHash
    /// The UpdatePath leaf reuses another member's encryption key (§7.3: keys are unique in the tree).
    case pathLeafKeyReuse
    /// The UpdatePath leaf's capabilities omit the group's required extensions (§7.3, §11.1).
    case pathLeafCapabilities
    /// A parent node's key in the Welcome's tree no longer matches the parent_hash chain (§7.9.2);
    /// tree hash, confirmation tag and signature are recomputed over the altered tree.
    case parentHash
    /// The commit's proposals need an UpdatePath (§12.4) and it carries none; the key schedule
    /// runs with a zero commit secret as a path-less commit's does.
    case noPath
    /// The UpdatePath leaf is signed with a fresh key, not the committer's leaf key (§7.3); the
    /// sender's tree carries the same leaf, so everything else agrees.
    case pathLeafSignature
    /// The UpdatePath carries one node more than the sender's filtered direct path (§12.4.2).
    case extraPathNode
    /// In the Welcome's tree, an intermediate parent no longer lists a leaf that a parent above
    /// it lists as unmerged (§7.9); tree hash, confirmation tag and signature are recomputed.
    case unmergedLeafDropped
    /// The GroupInfo's GroupContext names protocol version 2 (§8.1); confirmation tag and
    /// signature recomputed.
    case groupContextVersion
    /// The GroupInfo's GroupContext carries an extension (0xFF0A) no member lists in its
    /// capabilities; confirmation tag and signature recomputed.
    case unsupportedContextExtension
    /// The UpdatePath leaf has source update, not commit (§7.3); signed as such.
    case pathLeafSource
    /// The UpdatePath leaf's parent_hash is off by one bit (§7.9); signed as such, and the
    /// sender's tree carries the same leaf.
    case pathLeafParentHash
    /// The UpdatePath's first node repeats the leaf's encryption key (§7.3).
    case pathKeyRepeated
    /// The UpdatePath leaf lists this extension type in its capabilities, which the committer's
    /// leaf did not (an attacker meeting a requirement it is about to impose).
    case pathLeafSupports(UInt16)
    /// In the Welcome's tree, the committer's leaf signature is off by one bit (§7.3);
    /// tree hash, confirmation tag and GroupInfo signature are recomputed.
    case welcomeLeafSignature
    /// In the Welcome's tree, the committer's leaf carries the joiner's encryption key, re-signed
    /// by the committer; tree hash, confirmation tag and signature recomputed.
    case welcomeLeafKeyReuse
    /// In the Welcome's tree, the committer's leaf lists no credential type, re-signed by the
    /// committer; tree hash, confirmation tag and signature recomputed.
    case welcomeLeafCredentials
    /// The commit has no UpdatePath, and in the Welcome's tree the joiner's leaf is replaced by a
    /// stranger's leaf carrying the joiner's encryption key (signed by the stranger's fresh key);
    /// tree hash, confirmation tag and signature recomputed.
    case welcomeForeignLeaf
    /// The path_secret of the joiner's GroupSecrets is off by one bit (still sealed to it).
    case welcomePathSecret
    /// The GroupInfo's confirmation tag is off by one bit; the GroupInfo is signed over it.
    case groupInfoConfirmationTag
    /// The GroupInfo's GroupContext names cipher suite 0x0003; confirmation tag and signature recomputed.
    case groupInfoSuite
    /// The UpdatePath's last node carries a fresh public key, not the one its path secret
    /// derives; the sender's tree and parent hashes use it, so only the derivation tells.
    case pathNodeKey
    /// The commit is framed as external sender 0 and signed with `key` (a PublicMessage, no
    /// membership tag); everything else is the member's honest commit.
    case externalCommitter(key: [UInt8])
    /// The UpdatePath leaf carries these leaf extensions instead of the committer's (then signed
    /// as usual): an application's leaf-level data (a Marmot identity proof, say) broken while
    /// every RFC 9420 check still holds.
    case pathLeafExtensions([Extension])
    /// The Welcome's ratchet tree is widened to `slots` nodes (odd): blank slots after the real
    /// nodes, then a stranger's leaf in the last one (a tree must end in a non-blank node). With
    /// `hashed`, tree hash, confirmation tag and signature are recomputed over the wide tree, so a
    /// joiner without a width cap finds nothing else wrong; without, the joiner's width cap
    /// (``ReceiverCheck/treeWidth``) is all that is asked (no wide tree is ever built, so a
    /// million slots cost the sender one byte each).
    case oversizedTree(slots: Int, hashed: Bool)
}

/// What a framed message gets wrong on purpose.
package enum MessageFlaw: Sendable, Hashable {
    /// The header names this epoch while the content is protected with the current one's keys.
    case epoch(UInt64)
    /// The sender field names this leaf while our key signs (§6.1 signature check).
    case sender(UInt32)
    /// Non-zero padding after the content (§6.3.1).
    case padding
    /// A PublicMessage whose membership tag is off by one bit (§6.2).
    case membershipTag
    /// The MLSMessage names this protocol version instead of mls10 (§6); the content is intact.
    case version(UInt16)
    /// The content names this group_id, signed and protected as such.
    case groupID([UInt8])
}

extension Group {
    /// A commit of `proposals` (plus pending ones by reference) with a path, built without the
    /// sender's own checks and broken as `flaw` says. The returned `next` is the state an honest
    /// commit would lead to; adopt it only for a flawless commit.
    package mutating func uncheckedCommit(
        adding proposals: [Proposal], forcePath: Bool = true, flaw: CommitFlaw?, now: UInt64?,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> CreatedCommit {
        var wireFormat = HandshakeWireFormat.privateMessage
        if case .externalCommitter = flaw { wireFormat = .publicMessage }
        return try buildCommit(
            adding: proposals, forcePath: forcePath && flaw != .noPath && flaw != .welcomeForeignLeaf, as: wireFormat,
            ratchetTreeInWelcome: true, now: now, flaw: flaw,
            using: &generator)
    }

    /// Signs `content` as our leaf and frames it, broken as `flaw` says (none: an ordinary message).
    package mutating func uncheckedMessage(
        _ content: Content, flaw: MessageFlaw?, as wireFormat: HandshakeWireFormat,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> MLSMessage {
        var framed = FramedContent(
            groupID: groupID, epoch: epoch, sender: .member(leafIndex: leafIndex), authenticatedData: [], content: content)
        if case .epoch(let other) = flaw { framed.epoch = other }
        if case .sender(let other) = flaw { framed.sender = .member(leafIndex: other) }
        if case .groupID(let other) = flaw { framed.groupID = other }
        let signed = try AuthenticatedContent.sign(
            framed, wireFormat: wireFormat.value, context: context, suite: suite, signaturePrivateKey: signaturePrivateKey)
        var message = try framedMessage(signed, flaw: flaw, as: wireFormat, using: &generator)
        if case .version(let version) = flaw { message.version = version }
        return message
    }

    /// Frames signed content, broken as `flaw` says (padding, membership tag).
    private mutating func framedMessage(
        _ signed: AuthenticatedContent, flaw: MessageFlaw?, as wireFormat: HandshakeWireFormat,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> MLSMessage {
        switch wireFormat {
        case .privateMessage:
            let padded = flaw == .padding
            return MLSMessage(
                body: .privateMessage(
                    try PrivateMessage.protect(
                        signed, suite: suite, secretTree: &secretTree, senderDataSecret: secrets.senderDataSecret,
                        paddingLength: padded ? 8 : 0, paddingByte: padded ? 0x2A : 0, using: &generator)))
        case .publicMessage:
            var message = try PublicMessage.protect(signed, suite: suite, membershipKey: secrets.membershipKey, context: context)
            if flaw == .membershipTag, var tag = message.membershipTag, !tag.isEmpty {
                tag[0] ^= 0x01
                message.membershipTag = tag
            }
            return MLSMessage(body: .publicMessage(message))
        }
    }

    /// How the commit's UpdatePath leaf is altered before it is signed, for the path-leaf flaws.
    func pathLeafFlaw(_ flaw: CommitFlaw?, tree: RatchetTree) -> (inout LeafNode) -> Void {
        switch flaw {
        case .pathLeafKeyReuse:
            let other = tree.occupiedLeaves.first { $0 != leafIndex }.flatMap { tree.leaf($0)?.encryptionKey }
            return { leaf in if let other { leaf.encryptionKey = other } }
        case .pathLeafCapabilities:
            return { leaf in leaf.capabilities.extensions = [] }
        case .pathLeafSource:
            return { leaf in leaf.source = .update }
        case .pathLeafParentHash:
            return { leaf in
                if case .commit(var parentHash) = leaf.source, !parentHash.isEmpty {
                    parentHash[0] ^= 0x01
                    leaf.source = .commit(parentHash: parentHash)
                }
            }
        case .pathLeafSupports(let type):
            return { leaf in leaf.capabilities.extensions.append(type) }
        case .pathLeafExtensions(let extensions):
            return { leaf in leaf.extensions = extensions }
        default:
            return { _ in }
        }
    }

    /// Alters an unsigned GroupInfo of this (new) epoch as `flaw` says, keeping every other check
    /// a joiner makes before the broken one satisfied.
    func breakGroupInfo(
        _ info: inout GroupInfo, _ flaw: CommitFlaw, psks: [PreSharedKeyID], joiner: UInt32?,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) {
        switch flaw {
        case .treeHash:
            info.groupContext.treeHash[0] ^= 0x01
        case .parentHash, .unmergedLeafDropped, .welcomeLeafSignature, .welcomeLeafKeyReuse, .welcomeLeafCredentials,
            .welcomeForeignLeaf:
            var altered = tree
            if flaw == .unmergedLeafDropped {
                try altered.dropIntermediateUnmergedLeaf()
            } else if flaw != .parentHash {
                try alterWelcomeLeaf(&altered, flaw, joiner: joiner, using: &generator)
            } else {
                guard let index = (0..<UInt32(altered.nodes.count)).first(where: { altered.parent(at: $0) != nil }),
                    case .parent(var parent)? = altered[node: index]
                else { throw MLSError(.invalidTree, "no parent node to alter") }
                parent.encryptionKey[0] ^= 0x01
                altered.nodes[Int(index)] = .parent(parent)
            }
            info.extensions = info.extensions.map { item in
                guard item.type == ExtensionType.ratchetTree, let bytes = try? serialize(altered.wire) else { return item }
                return Extension(type: item.type, data: bytes)
            }
            info.groupContext.treeHash = altered.treeHash(suite: suite)
        case .groupContextVersion:
            info.groupContext.version = 2
        case .groupInfoSuite:
            info.groupContext.cipherSuite = 3
        case .unsupportedContextExtension:
            info.groupContext.extensions.append(Extension(type: 0xFF0A, data: []))
        case .confirmationTag, .groupInfoSignature, .pathLeafKeyReuse, .pathLeafCapabilities, .pathLeafSignature, .noPath,
            .extraPathNode, .pathLeafSource, .pathLeafParentHash, .pathKeyRepeated, .pathLeafSupports, .welcomePathSecret,
            .groupInfoConfirmationTag, .pathNodeKey, .externalCommitter, .pathLeafExtensions:
            return
        case .oversizedTree(let slots, let hashed):
            let (bytes, wide) = try widenedTree(to: slots, hashed: hashed, using: &generator)
            info.extensions = info.extensions.map { item in
                item.type == ExtensionType.ratchetTree ? Extension(type: item.type, data: bytes) : item
            }
            guard let wide else { return }
            info.groupContext.treeHash = wide.treeHash(suite: suite)
        }
        // The joiner checks the confirmation tag first (with the GroupInfo's context): recompute it.
        let joined = EpochSecrets(
            suite: suite, joinerSecret: secrets.joinerSecret, pskSecret: suite.pskSecret(try resolvePSKs(psks)),
            groupContext: try serialize(info.groupContext))
        info.confirmationTag = suite.confirmationTag(
            confirmationKey: joined.confirmationKey, confirmedTranscriptHash: info.groupContext.confirmedTranscriptHash)
    }
}

extension Group {
    /// The wire bytes of our tree widened to `slots` nodes (the `oversizedTree` flaw): the real
    /// nodes, blank slots, and a stranger's leaf (fresh keys, signed by its own key) last. The
    /// tree itself is built only when `hashed` asks for its hash.
    static let nobodysIdentity: [UInt8] = [
        0x79, 0xBE, 0x66, 0x7E, 0xF9, 0xDC, 0xBB, 0xAC, 0x55, 0xA0, 0x62, 0x95, 0xCE, 0x87, 0x0B, 0x07,
        0x02, 0x9B, 0xFC, 0xDB, 0x2D, 0xCE, 0x28, 0xD9, 0x59, 0xF2, 0x81, 0x5B, 0x16, 0xF8, 0x17, 0x98,
    ]

    func widenedTree(to slots: Int, hashed: Bool, using generator: inout some RandomNumberGenerator) throws(MLSError) -> (
        [UInt8], RatchetTree?
    ) {
        let real = tree.wire.nodes
        guard slots % 2 == 1, slots > real.count + 1, var stranger = tree.leaf(leafIndex) else {
            throw MLSError(.invalidTree, "cannot widen a tree of \(real.count) nodes to \(slots)")
        }
        let signing = try suite.generateSignatureKeyPair(using: &generator)
        let seed = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let encryption = try suite.deriveKeyPair(secret: seed)
        stranger.signatureKey = signing.publicKey
        stranger.encryptionKey = encryption.publicKey
        // A 32-byte identity that is a valid BIP-340 key (secp256k1's generator, x only: the key of
        // secret 1, nobody's), so that a Marmot joiner reads the stranger as a member like any other.
        stranger.credential = .basic(identity: Self.nobodysIdentity)
        try stranger.sign(suite: suite, privateKey: signing.privateKey, groupID: groupID, leafIndex: UInt32(slots / 2))
        var body = TLSWriter()
        for node in real { body.writeOptional(node) }
        body.writeBytes(repeatElement(0, count: slots - real.count - 1))
        body.writeOptional(Node.leaf(stranger))
        var writer = TLSWriter()
        writer.writeVector { $0.writeBytes(body.bytes) }
        guard hashed else { return (writer.bytes, nil) }
        let nodes = real + Array(repeating: nil, count: slots - real.count - 1) + [.leaf(stranger)]
        return (writer.bytes, try RatchetTree(wire: RatchetTreeNodes(nodes: nodes)))
    }
}
