// Sending: proposals, commits with Welcome, and application messages (RFC 9420 §12.1–12.4).
import TLSCodec

/// How a handshake message travels.
public enum HandshakeWireFormat: Sendable {
    case publicMessage
    case privateMessage
}

/// The result of creating a commit: what to send, and the state to adopt once it is accepted.
public struct CreatedCommit: Sendable {
    public var commit: MLSMessage
    public var welcome: Welcome?
    /// The group at the new epoch; adopt it only after the commit is confirmed by the delivery service.
    public var next: Group
}

extension Group {
    /// Sends a proposal and caches it so a later commit (ours or another member's) can reference it.
    public mutating func propose(
        _ proposal: Proposal, as wireFormat: HandshakeWireFormat = .publicMessage,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> MLSMessage {
        try checkCanSend()
        let framed = FramedContent(
            groupID: groupID, epoch: epoch, sender: .member(leafIndex: leafIndex), authenticatedData: [],
            content: .proposal(proposal))
        let signed = try AuthenticatedContent.sign(
            framed, wireFormat: wireFormat.value, context: context, suite: suite, signaturePrivateKey: signaturePrivateKey)
        try storeProposal(proposal, content: signed)
        return try frame(signed, as: wireFormat, using: &generator)
    }

    /// Proposes replacing our leaf with one carrying a fresh encryption key (§12.1.2); the new
    /// private key is kept until a commit applies the Update or the epoch ends.
    public mutating func proposeUpdate(
        as wireFormat: HandshakeWireFormat = .publicMessage, using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> MLSMessage {
        guard var leaf = tree.leaf(leafIndex) else { throw MLSError(.notAMember, "our leaf is blank") }
        let keyPair = try suite.deriveKeyPair(secret: suite.randomBytes(suite.hashLength, using: &generator))
        leaf.encryptionKey = keyPair.publicKey
        leaf.source = .update
        try leaf.sign(suite: suite, privateKey: signaturePrivateKey, groupID: groupID, leafIndex: leafIndex)
        let message = try propose(.update(leaf), as: wireFormat, using: &generator)
        pendingLeafKeys[keyPair.publicKey] = keyPair.privateKey
        return message
    }

    /// Encrypts application data to the group.
    /// - Parameter paddingLength: zero bytes added to hide the message length.
    public mutating func protect(
        application data: [UInt8], authenticatedData: [UInt8] = [], paddingLength: Int = 0,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> MLSMessage {
        try checkCanSend()
        let framed = FramedContent(
            groupID: groupID, epoch: epoch, sender: .member(leafIndex: leafIndex), authenticatedData: authenticatedData,
            content: .application(data))
        let signed = try AuthenticatedContent.sign(
            framed, wireFormat: WireFormat.privateMessage, context: context, suite: suite,
            signaturePrivateKey: signaturePrivateKey)
        let message = try PrivateMessage.protect(
            signed, suite: suite, secretTree: &secretTree, senderDataSecret: secrets.senderDataSecret,
            paddingLength: paddingLength, using: &generator)
        return MLSMessage(body: .privateMessage(message))
    }

    /// Commits every pending proposal (by reference) plus `proposals` (by value).
    /// - Parameters:
    ///   - forcePath: include an UpdatePath even when no proposal requires one (a self-update).
    ///   - ratchetTreeInWelcome: put the tree in the GroupInfo's ratchet_tree extension.
    ///   - now: seconds since the epoch, to check the lifetimes of added key packages.
    ///   - judge: the caller's rule, asked about the commit (``CommitCandidate/isOwn`` true) and
    ///     the epoch it leads to before anything is signed away; what it throws is thrown.
    ///   - including: which pending proposals the commit covers (default: all). A caller whose
    ///     receivers apply a policy over RFC 9420's (Marmot's admin rules) leaves out what they
    ///     would refuse from us, so that one stored proposal cannot make every commit of ours invalid.
    /// - Returns: the commit, a Welcome when members were added, and the next epoch's state.
    public mutating func commit(
        adding proposals: [Proposal] = [], forcePath: Bool = true, as wireFormat: HandshakeWireFormat = .publicMessage,
        ratchetTreeInWelcome: Bool = true, now: UInt64? = nil, judge: GroupChangeJudge = acceptEveryChange,
        including: (Proposal, Sender) -> Bool = { _, _ in true }, using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> CreatedCommit {
        try checkCanSend()
        return try buildCommit(
            adding: proposals, forcePath: forcePath, as: wireFormat, ratchetTreeInWelcome: ratchetTreeInWelcome, now: now,
            flaw: nil, judge: judge, including: including, using: &generator)
    }

    /// The commit builder behind ``commit(adding:forcePath:as:ratchetTreeInWelcome:now:using:)``;
    /// `flaw` (unchecked builders only) breaks one thing on purpose.
    mutating func buildCommit(
        adding proposals: [Proposal], forcePath: Bool, as wireFormat: HandshakeWireFormat, ratchetTreeInWelcome: Bool,
        now: UInt64?, flaw: CommitFlaw?, judge: GroupChangeJudge = acceptEveryChange,
        including: (Proposal, Sender) -> Bool = { _, _ in true }, using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> CreatedCommit {
        let me = Sender.member(leafIndex: leafIndex)
        let nextEpoch = try self.nextEpoch()
        var items: [ProposalOrRef] = []
        var resolved: [(Proposal, Sender)] = []
        var covered: [CoveredProposal] = []
        for ref in pendingOrder {
            guard let pending = pendingProposals[ref], including(pending.proposal, pending.sender) else { continue }
            items.append(.reference(ref))
            resolved.append(pending)
            covered.append(CoveredProposal(proposal: pending.proposal, sender: pending.sender, reference: ref))
        }
        for proposal in proposals {
            items.append(.proposal(proposal))
            resolved.append((proposal, me))
            covered.append(CoveredProposal(proposal: proposal, sender: me, reference: nil))
        }
        var applied = try applyProposals(resolved, committer: me, now: now)
        let addedKeyPackages = resolved.compactMap { item -> KeyPackage? in
            if case .add(let kp) = item.0 { return kp }
            return nil
        }

        var next = self
        next.privateKeys = keys(matching: applied.tree)
        var commitSecret = [UInt8](repeating: 0, count: suite.hashLength)
        var path: UpdatePath?
        var pathSecrets: [UInt32: [UInt8]] = [:]
        if forcePath || applied.requiresPath, flaw != .noPath {
            // The leaf is blank in the new tree only when the commit removes its committer, which
            // applyProposals refuses unless that check is switched off (tests only): the path is
            // then built from the old leaf, so the receiver's rule, not our inability, refuses it.
            guard let ownLeaf = applied.tree.leaf(leafIndex) ?? tree.leaf(leafIndex) else {
                throw MLSError(.notAMember, "our leaf is blank")
            }
            let (suite, groupID, confirmed, extensions) =
                (suite, groupID, context.confirmedTranscriptHash, applied.extensions)
            let alterLeaf = pathLeafFlaw(flaw, tree: applied.tree)
            let leafSigner =
                flaw == .pathLeafSignature ? try suite.generateSignatureKeyPair(using: &generator).privateKey : signaturePrivateKey
            let strayKey =
                flaw == .pathNodeKey
                ? try suite.deriveKeyPair(secret: suite.randomBytes(suite.hashLength, using: &generator)).publicKey : nil
            let created = try applied.tree.createUpdatePath(
                suite: suite, sender: leafIndex, leafNode: ownLeaf, signaturePrivateKey: leafSigner,
                groupID: groupID, excluded: Set(applied.joiners),
                context: { treeHash in
                    GroupContext(
                        cipherSuite: suite.id, groupID: groupID, epoch: nextEpoch, treeHash: treeHash,
                        confirmedTranscriptHash: confirmed, extensions: extensions)
                }, alterLeaf: alterLeaf,
                alterKeys: { keys in if let strayKey, !keys.isEmpty { keys[keys.count - 1] = strayKey } }, using: &generator)
            commitSecret = created.commitSecret
            path = created.path
            if flaw == .pathKeyRepeated, let leafKey = path?.leafNode.encryptionKey, path?.nodes.isEmpty == false {
                path?.nodes[0].encryptionKey = leafKey
            }
            if flaw == .extraPathNode {
                let extra = try suite.deriveKeyPair(secret: suite.randomBytes(suite.hashLength, using: &generator))
                path?.nodes.append(UpdatePathNode(encryptionKey: extra.publicKey, encryptedPathSecrets: []))
            }
            pathSecrets = created.pathSecrets
            next.privateKeys = created.privateKeys
        }

        let commit = Commit(proposals: items, path: path)
        var (framedSender, signer) = (me, signaturePrivateKey)
        if case .externalCommitter(let key) = flaw { (framedSender, signer) = (.external(senderIndex: 0), key) }
        let framed = FramedContent(
            groupID: groupID, epoch: epoch, sender: framedSender, authenticatedData: [], content: .commit(commit))
        var signed = try AuthenticatedContent.sign(
            framed, wireFormat: wireFormat.value, context: context, suite: suite, signaturePrivateKey: signer)
        let confirmed = suite.confirmedTranscriptHash(interim: interimTranscriptHash, commit: signed)
        let newContext = GroupContext(
            cipherSuite: suite.id, groupID: groupID, epoch: nextEpoch, treeHash: applied.tree.treeHash(suite: suite),
            confirmedTranscriptHash: confirmed, extensions: applied.extensions)
        try judge(
            .commit(
                CommitCandidate(
                    committer: me, proposals: covered, pathLeaf: path?.leafNode, isOwn: true, previousContext: context,
                    previousTree: tree, context: newContext, tree: applied.tree)))
        let psks = try resolvePSKs(applied.psks)
        // A member's commit never carries an ExternalInit (applyProposals refuses it unless that
        // check is switched off, tests only); if it does, the key schedule is the one every
        // receiver runs for it, so only the receiver's rule tells.
        let initSecret =
            try applied.externalInit.map { kemOutput throws(MLSError) in
                try HPKE.receiverExport(
                    suite: suite, enc: kemOutput, recipientPrivateKey: suite.deriveKeyPair(secret: secrets.externalSecret).privateKey,
                    info: [], exporterContext: mlsLabel("external init secret"), length: suite.hashLength)
            } ?? secrets.initSecret
        let newSecrets = EpochSecrets(
            suite: suite, initSecret: initSecret, commitSecret: commitSecret, pskSecret: suite.pskSecret(psks),
            groupContext: try serialize(newContext))
        let tag = suite.confirmationTag(confirmationKey: newSecrets.confirmationKey, confirmedTranscriptHash: confirmed)
        signed.auth.confirmationTag = flaw == .confirmationTag ? tag.map { $0 ^ 0x01 } : tag
        let message = try frame(signed, as: wireFormat, using: &generator)

        next.tree = applied.tree
        next.context = newContext
        next.interimTranscriptHash = suite.interimTranscriptHash(confirmed: confirmed, confirmationTag: tag)
        next.confirmationTag = tag
        next.enterEpoch(newSecrets)
        next.reInit = applied.reInit

        var welcome: Welcome?
        if !addedKeyPackages.isEmpty {
            welcome = try next.welcome(
                for: addedKeyPackages, joiners: applied.joiners, pathSecrets: pathSecrets, psks: applied.psks,
                includeTree: ratchetTreeInWelcome, flaw: flaw, using: &generator)
        }
        return CreatedCommit(commit: message, welcome: welcome, next: next)
    }

    /// Builds the Welcome for members added by the commit that produced this (new) epoch.
    private func welcome(
        for keyPackages: [KeyPackage], joiners: [UInt32], pathSecrets: [UInt32: [UInt8]], psks: [PreSharedKeyID],
        includeTree: Bool, flaw: CommitFlaw?, using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> Welcome {
        var extensions: [Extension] = []
        if includeTree {
            extensions.append(Extension(type: ExtensionType.ratchetTree, data: try serialize(tree.wire)))
        }
        extensions.append(Extension(type: ExtensionType.externalPub, data: try externalPubExtension()))
        var info = GroupInfo(groupContext: context, extensions: extensions, confirmationTag: confirmationTag, signer: leafIndex)
        if let flaw { try breakGroupInfo(&info, flaw, psks: psks, joiner: joiners.first, using: &generator) }
        if flaw == .groupInfoConfirmationTag { info.confirmationTag[0] ^= 0x01 }
        try info.sign(suite: suite, privateKey: signaturePrivateKey)
        if flaw == .groupInfoSignature { info.signature[0] ^= 0x01 }
        let (key, nonce) = EpochSecrets.welcomeKeyAndNonce(suite: suite, welcomeSecret: secrets.welcomeSecret)
        let encryptedGroupInfo = try suite.seal(key: key, nonce: nonce, aad: [], plaintext: try serialize(info))

        let path = tree.filteredDirectPath(of: leafIndex)
        var sealed: [EncryptedGroupSecrets] = []
        for (keyPackage, joiner) in zip(keyPackages, joiners) {
            let ancestor = path.first { TreeMath.isInSubtree(TreeMath.nodeIndex(ofLeaf: joiner), of: $0) }
            var pathSecret = ancestor.flatMap { pathSecrets[$0] }
            if flaw == .welcomePathSecret, pathSecret?.isEmpty == false { pathSecret?[0] ^= 0x01 }
            let groupSecrets = GroupSecrets(joinerSecret: secrets.joinerSecret, pathSecret: pathSecret, psks: psks)
            sealed.append(
                EncryptedGroupSecrets(
                    newMember: try keyPackage.reference(suite: suite),
                    encryptedGroupSecrets: try suite.encryptWithLabel(
                        publicKey: keyPackage.initKey, label: "Welcome", context: encryptedGroupInfo,
                        plaintext: try serialize(groupSecrets), using: &generator)))
        }
        return Welcome(cipherSuite: suite.id, secrets: sealed, encryptedGroupInfo: encryptedGroupInfo)
    }

    /// The external_pub extension body: `HPKEPublicKey external_pub;`.
    private func externalPubExtension() throws(MLSError) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(try secrets.externalPublicKey())
        return w.bytes
    }

    /// Wraps signed content for sending.
    private mutating func frame(
        _ signed: AuthenticatedContent, as wireFormat: HandshakeWireFormat,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> MLSMessage {
        switch wireFormat {
        case .publicMessage:
            return MLSMessage(
                body: .publicMessage(
                    try PublicMessage.protect(signed, suite: suite, membershipKey: secrets.membershipKey, context: context)))
        case .privateMessage:
            return MLSMessage(
                body: .privateMessage(
                    try PrivateMessage.protect(
                        signed, suite: suite, secretTree: &secretTree, senderDataSecret: secrets.senderDataSecret,
                        using: &generator)))
        }
    }
}

extension HandshakeWireFormat {
    var value: UInt16 {
        switch self {
        case .publicMessage: WireFormat.publicMessage
        case .privateMessage: WireFormat.privateMessage
        }
    }
}
