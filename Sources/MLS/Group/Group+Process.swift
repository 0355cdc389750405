// Receiving messages (RFC 9420 §6, §12.4.2): unprotect, authenticate, and for commits apply the
// proposals, merge the path, advance the transcript and key schedule, and check the confirmation tag.
import ErrorCodes
import TLSCodec

/// What a received message turned out to be.
public enum ReceivedMessage: Sendable, Equatable {
    /// Application data from a member.
    case application([UInt8], sender: UInt32)
    /// A proposal, stored until a commit covers it.
    case proposal(Proposal, sender: Sender)
    /// A commit that moved the group to a new epoch.
    case commit(epoch: UInt64, sender: Sender)
}

/// The effect of a commit's proposals on the tree and context, before the path and key schedule.
struct AppliedProposals {
    var tree: RatchetTree
    var extensions: [Extension]
    var joiners: [UInt32] = []
    var psks: [PreSharedKeyID] = []
    var externalInit: [UInt8]?
    var reInit: Proposal?
    var requiresPath: Bool
    var removedUs = false
}

extension Group {
    /// Unprotects and processes one message of this group's current epoch.
    /// - Parameter now: seconds since the epoch, to check the lifetimes of added key packages;
    ///   nil skips that check (e.g. when replaying recorded traffic).
    /// - Parameter judge: the caller's rule over a proposal or commit MLS accepts (see
    ///   ``GroupChangeJudge``); it runs before any state changes, and what it throws is thrown.
    /// - Throws: `.wrongEpoch`, `.badMembershipTag`, `.badSignature`, `.decryptionFailed`,
    ///   `.invalidProposal`, `.badConfirmationTag`, and the tree errors of a bad path.
    public mutating func process(
        _ message: MLSMessage, now: UInt64? = nil, judge: GroupChangeJudge = acceptEveryChange
    ) throws(MLSError) -> ReceivedMessage {
        guard isActive else { throw MLSError(.notAMember, "we were removed from this group") }
        try message.requireSupportedVersion()
        let content: AuthenticatedContent
        switch message.body {
        case .publicMessage(let m):
            try checkEpoch(m.content.groupID, m.content.epoch)
            content = try m.unprotect(suite: suite, membershipKey: secrets.membershipKey, context: context)
        case .privateMessage(let m):
            try checkEpoch(m.groupID, m.epoch)
            content = try m.unprotect(suite: suite, secretTree: &secretTree, senderDataSecret: secrets.senderDataSecret)
        default:
            throw MLSError(.malformed, "wire format \(message.body.wireFormat) is not a framed message")
        }
        let framed = content.content
        try requireNonBlankSender(framed.sender)
        if ReceiverCheck.signature.isOn {
            try content.verifySignature(
                suite: suite, publicKey: signatureKey(of: framed.sender, content: framed.content), context: context)
        }
        switch framed.content {
        case .application(let data):
            guard case .member(let leaf) = framed.sender else {
                throw MLSError(.invalidSender, "application data from a non-member")
            }
            return .application(data, sender: leaf)
        case .proposal(let proposal):
            try storeProposal(proposal, content: content, judge: judge)
            return .proposal(proposal, sender: framed.sender)
        case .commit(let commit):
            try applyCommit(commit, content: content, now: now, judge: judge)
            return .commit(epoch: epoch, sender: framed.sender)
        }
    }

    /// A framed message is for this group (`groupID`) and epoch (`epoch`), §6.
    func checkEpoch(_ group: [UInt8], _ messageEpoch: UInt64) throws(MLSError) {
        guard group == groupID || !ReceiverCheck.groupID.isOn else { throw MLSError(.wrongEpoch, "message for another group") }
        guard messageEpoch == epoch || !ReceiverCheck.epoch.isOn else {
            throw MLSError(.wrongEpoch, "message for epoch \(messageEpoch), we are at \(epoch)")
        }
    }

    /// Keeps a proposal for a later commit, once its sender is one that may send it: every
    /// proposal a commit references has passed the sender rules here.
    mutating func storeProposal(
        _ proposal: Proposal, content: AuthenticatedContent, judge: GroupChangeJudge = acceptEveryChange
    ) throws(MLSError) {
        if ReceiverCheck.proposalSender.isOn { try Group.requireSender(content.content.sender, mayPropose: proposal) }
        let ref = Proposal.reference(suite: suite, authenticatedContent: try serialize(content))
        try judge(
            .proposal(
                ProposalCandidate(
                    proposal: proposal, sender: content.content.sender, reference: ref, context: context, tree: tree)))
        if pendingProposals[ref] == nil { pendingOrder.append(ref) }
        pendingProposals[ref] = (proposal, content.content.sender)
    }

    /// Applies a received commit and enters the next epoch.
    mutating func applyCommit(
        _ commit: Commit, content: AuthenticatedContent, now: UInt64?, judge: GroupChangeJudge = acceptEveryChange
    ) throws(MLSError) {
        let committer = content.content.sender
        let nextEpoch = try self.nextEpoch()
        if case .member(let leaf) = committer, leaf == leafIndex {
            throw MLSError(.invalidSender, "our own commit must be merged, not processed")
        }
        switch committer {
        case .member, .newMemberCommit: break
        case .external, .newMemberProposal:
            if ReceiverCheck.commitSender.isOn { throw MLSError(.invalidSender, "commit from a sender of type \(committer)") }
        }
        var resolved: [(Proposal, Sender)] = []
        var covered: [CoveredProposal] = []
        for item in commit.proposals {
            switch item {
            case .proposal(let p):
                resolved.append((p, committer))
                covered.append(CoveredProposal(proposal: p, sender: committer, reference: nil))
            case .reference(let ref):
                // §12.4.3.2: the joiner of an external commit cannot judge the group's pending proposals.
                if committer == .newMemberCommit, ReceiverCheck.externalCommitReferences.isOn {
                    throw MLSError(.invalidProposal, "external commit covers a proposal by reference")
                }
                guard let pending = pendingProposals[ref] else {
                    throw MLSError(.unknownProposal, "commit references an unknown proposal")
                }
                resolved.append(pending)
                covered.append(CoveredProposal(proposal: pending.proposal, sender: pending.sender, reference: ref))
            }
        }
        var applied = try applyProposals(resolved, committer: committer, now: now)
        if case .newMemberCommit = committer, ReceiverCheck.externalCommitShape.isOn {
            guard applied.externalInit != nil else { throw MLSError(.invalidProposal, "external commit without ExternalInit") }
        }
        guard commit.path != nil || !applied.requiresPath || !ReceiverCheck.pathRequired.isOn else {
            throw MLSError(.invalidProposal, "commit needs a path for its proposals")
        }
        // A commit that removes us is checked like any other as far as a removed member can (its
        // UpdatePath's shape, leaf, signature and parent hashes; not the confirmation tag, whose
        // epoch secret only the remaining members derive), and only then ends our membership
        // (issue 30, N7). With the check off, the removal takes effect before any of them.
        if applied.removedUs, !ReceiverCheck.removalAfterChecks.isOn {
            try leaveOnRemoval(committer: committer, covered: covered, pathLeaf: commit.path?.leafNode, tree: applied.tree, judge: judge)
            return
        }

        var keys = keys(matching: applied.tree)
        var commitSecret = [UInt8](repeating: 0, count: suite.hashLength)
        var pathSender: UInt32?
        if let path = commit.path {
            let sender: UInt32
            switch committer {
            case .member(let leaf): sender = leaf
            case .newMemberCommit: sender = applied.tree.add(path.leafNode)
            default: throw MLSError(.invalidSender, "commit from a non-member")
            }
            try applied.tree.merge(path, sender: sender, suite: suite, groupID: groupID)
            // §7.3 for the new leaf in the new tree: keys unique, capabilities as required.
            if ReceiverCheck.pathLeaf.isOn { try Group.validatePathLeaf(path.leafNode, in: applied.tree, extensions: applied.extensions) }
            pathSender = sender
        }
        if applied.removedUs {
            try leaveOnRemoval(committer: committer, covered: covered, pathLeaf: commit.path?.leafNode, tree: applied.tree, judge: judge)
            return
        }
        if let path = commit.path, let sender = pathSender {
            let provisional = GroupContext(
                cipherSuite: suite.id, groupID: groupID, epoch: nextEpoch, treeHash: applied.tree.treeHash(suite: suite),
                confirmedTranscriptHash: context.confirmedTranscriptHash, extensions: applied.extensions)
            commitSecret = try applied.tree.decryptPath(
                path, sender: sender, keys: &keys, excluded: Set(applied.joiners), context: provisional, suite: suite
            ).commitSecret
        }

        let confirmed = suite.confirmedTranscriptHash(interim: interimTranscriptHash, commit: content)
        let newContext = GroupContext(
            cipherSuite: suite.id, groupID: groupID, epoch: nextEpoch, treeHash: applied.tree.treeHash(suite: suite),
            confirmedTranscriptHash: confirmed, extensions: applied.extensions)
        let initSecret: [UInt8]
        if let kemOutput = applied.externalInit {
            initSecret = try HPKE.receiverExport(
                suite: suite, enc: kemOutput, recipientPrivateKey: suite.deriveKeyPair(secret: secrets.externalSecret).privateKey,
                info: [], exporterContext: mlsLabel("external init secret"), length: suite.hashLength)
        } else {
            initSecret = secrets.initSecret
        }
        let pskSecret = suite.pskSecret(try resolvePSKs(applied.psks))
        let newSecrets = EpochSecrets(
            suite: suite, initSecret: initSecret, commitSecret: commitSecret, pskSecret: pskSecret,
            groupContext: try serialize(newContext))
        guard let tag = content.auth.confirmationTag,
            constantTimeEqual(tag, suite.confirmationTag(confirmationKey: newSecrets.confirmationKey, confirmedTranscriptHash: confirmed))
                || !ReceiverCheck.confirmationTag.isOn
        else { throw MLSError(.badConfirmationTag, "commit confirmation tag does not match") }
        try judge(
            .commit(
                CommitCandidate(
                    committer: committer, proposals: covered, pathLeaf: commit.path?.leafNode, isOwn: false,
                    previousContext: context, previousTree: tree, context: newContext, tree: applied.tree)))

        tree = applied.tree
        context = newContext
        privateKeys = keys
        interimTranscriptHash = suite.interimTranscriptHash(confirmed: confirmed, confirmationTag: tag)
        confirmationTag = tag
        enterEpoch(newSecrets)
        reInit = applied.reInit
    }

    /// Ends our membership on a commit that removes us, once the proposal policy (`judge`) accepts it.
    private mutating func leaveOnRemoval(
        committer: Sender, covered: [CoveredProposal], pathLeaf: LeafNode?, tree newTree: RatchetTree, judge: GroupChangeJudge
    ) throws(MLSError) {
        try judge(
            .commit(
                CommitCandidate(
                    committer: committer, proposals: covered, pathLeaf: pathLeaf, isOwn: false,
                    previousContext: context, previousTree: tree, context: nil, tree: newTree)))
        isActive = false
    }

    /// Applies proposals in the order of §12.4.2: GroupContextExtensions, Update, Remove (and
    /// SelfRemove), Add, then PSKs; checks each on the way.
    func applyProposals(
        _ proposals: [(Proposal, Sender)], committer: Sender, now: UInt64?
    ) throws(MLSError) -> AppliedProposals {
        try validateProposalList(proposals, committer: committer)
        var result = AppliedProposals(tree: tree, extensions: context.extensions, requiresPath: proposals.isEmpty)
        var newExtensions = false
        for (proposal, _) in proposals {
            if case .groupContextExtensions(let extensions) = proposal {
                // An app_data_dictionary the group cannot read gives no agreed component values.
                _ = try extensions.appDataDictionary()
                result.extensions = extensions
                result.requiresPath = true
                newExtensions = true
            }
        }
        // MLS extensions draft: AppDataUpdate proposals change the app_data_dictionary the
        // GroupContextExtensions (if any) left, one after another in the commit's order.
        if proposals.contains(where: { if case .appDataUpdate = $0.0 { true } else { false } }) {
            let before = try result.extensions.appDataDictionary()?.appComponents()
            result.extensions = try Group.applyAppDataUpdates(proposals.map(\.0), to: result.extensions)
            // A change of the required components binds the members that stay, as a change of
            // required_capabilities does (checked below, with the GroupContextExtensions case).
            if try result.extensions.appDataDictionary()?.appComponents() != before { newExtensions = true }
        }
        for (proposal, sender) in proposals {
            guard case .update(let leaf) = proposal else { continue }
            guard case .member(let index) = sender, sender != committer || !ReceiverCheck.committerUpdate.isOn else {
                throw MLSError(.invalidProposal, "Update must come from a member other than the committer")
            }
            guard leaf.source == .update || !ReceiverCheck.updateLeafSource.isOn else {
                throw MLSError(.invalidProposal, "Update leaf does not have source update")
            }
            guard leaf.verifySignature(suite: suite, groupID: groupID, leafIndex: index) || !ReceiverCheck.updateLeafSignature.isOn else {
                throw MLSError(.invalidProposal, "Update leaf signature does not verify")
            }
            if ReceiverCheck.updateCapabilities.isOn { try Group.checkRequiredCapabilities(result.extensions, leaf: leaf) }
            try result.tree.update(leaf: index, with: leaf)
            result.requiresPath = true
        }
        for (proposal, sender) in proposals {
            let removed: UInt32
            switch proposal {
            case .remove(let leaf): removed = leaf
            case .selfRemove:
                guard case .member(let leaf) = sender else {
                    throw MLSError(.invalidProposal, "SelfRemove from a non-member")
                }
                removed = leaf
            default: continue
            }
            if case .member(let committerLeaf) = committer, committerLeaf == removed, ReceiverCheck.committerRemoved.isOn {
                throw MLSError(.invalidProposal, "a commit cannot remove its committer")
            }
            try result.tree.remove(leaf: removed)
            if removed == leafIndex { result.removedUs = true }
            result.requiresPath = true
        }
        // §12.1.7: the members that remain (updated ones included) support the new required
        // capabilities; added members are checked against them below.
        if newExtensions, ReceiverCheck.extensionsCapabilities.isOn {
            for leaf in result.tree.occupiedLeaves.compactMap(result.tree.leaf) {
                try Group.checkRequiredCapabilities(result.extensions, leaf: leaf)
            }
        }
        for (proposal, _) in proposals {
            guard case .add(let keyPackage) = proposal else { continue }
            try validate(keyPackage, extensions: result.extensions, now: now)
            result.joiners.append(result.tree.add(keyPackage.leafNode))
        }
        for (proposal, _) in proposals {
            switch proposal {
            case .preSharedKey(let id): result.psks.append(id)
            case .externalInit(let kemOutput):
                result.externalInit = kemOutput
                result.requiresPath = true
            case .reInit: result.reInit = proposal
            default: continue
            }
        }
        return result
    }

    /// Checks a KeyPackage offered in an Add against this group (§12.1.1).
    func validate(_ keyPackage: KeyPackage, extensions: [Extension], now: UInt64?) throws(MLSError) {
        try keyPackage.validate(suite: suite, now: now)
        if ReceiverCheck.addCapabilities.isOn { try Group.checkRequiredCapabilities(extensions, leaf: keyPackage.leafNode) }
        if ReceiverCheck.addCredentialTypes.isOn {
            try Group.checkCredentialTypes(of: keyPackage.leafNode, among: tree.occupiedLeaves.compactMap { tree.leaf($0) })
        }
    }
}

extension MLSError.Code {
    /// A KeyPackage or leaf used outside its lifetime.
    public static let expired = Self("mls.expired")
}

extension KeyPackage {
    /// Checks suite, version, both signatures, the leaf source, distinct keys and, when `now`
    /// (seconds since the epoch) is given, the lifetime (§10.1).
    /// - Throws: `.unsupportedCipherSuite`, `.unsupportedVersion`, `.badSignature`, `.invalidProposal`, `.expired`.
    public func validate(suite: CipherSuite, now: UInt64?) throws(MLSError) {
        // §10.1: the KeyPackage's cipher suite and protocol version are the group's.
        guard cipherSuite == suite.id || !ReceiverCheck.keyPackageCipherSuite.isOn else {
            throw MLSError(.unsupportedCipherSuite, "KeyPackage for suite \(cipherSuite), the group uses \(suite.id)")
        }
        guard version == ProtocolVersion.mls10 || !ReceiverCheck.keyPackageVersion.isOn else {
            throw MLSError(.unsupportedVersion, "KeyPackage for protocol version \(version)")
        }
        guard verifySignature(suite: suite) || !ReceiverCheck.keyPackageSignature.isOn else {
            throw MLSError(.badSignature, "KeyPackage signature does not verify")
        }
        let lifetime: Lifetime?
        if case .keyPackage(let value) = leafNode.source { lifetime = value } else { lifetime = nil }
        guard lifetime != nil || !ReceiverCheck.keyPackageLeafSource.isOn else {
            throw MLSError(.invalidProposal, "KeyPackage leaf does not have source key_package")
        }
        guard leafNode.verifySignature(suite: suite, groupID: [], leafIndex: 0) || !ReceiverCheck.keyPackageLeafSignature.isOn else {
            throw MLSError(.badSignature, "KeyPackage leaf signature does not verify")
        }
        guard initKey != leafNode.encryptionKey || !ReceiverCheck.keyPackageInitKey.isOn else {
            throw MLSError(.invalidProposal, "KeyPackage init_key equals its encryption_key")
        }
        if let now, let lifetime, now < lifetime.notBefore || now > lifetime.notAfter, ReceiverCheck.addLifetime.isOn {
            throw MLSError(.expired, "KeyPackage lifetime \(lifetime.notBefore)...\(lifetime.notAfter) excludes \(now)")
        }
    }

    /// True when the KeyPackage carries the last_resort extension (it may be used more than once).
    public var isLastResort: Bool { extensions.contains { $0.type == ExtensionType.lastResort } }
}

extension Group {
    /// `extensions` with every AppDataUpdate of `proposals` applied, in order, to its
    /// app_data_dictionary: `update` makes the proposal's bytes the component's value (inserting
    /// the component in id order), `remove` drops the component (a remove of an absent one changes
    /// nothing). A list without a dictionary gains one.
    /// - Throws: `.malformed` when the current dictionary does not decode.
    static func applyAppDataUpdates(_ proposals: [Proposal], to extensions: [Extension]) throws(MLSError) -> [Extension] {
        var dictionary = try extensions.appDataDictionary() ?? AppDataDictionary()
        for case .appDataUpdate(let update) in proposals {
            switch update.operation {
            case .update(let data): dictionary.set(update.componentID, to: data)
            case .remove: dictionary.set(update.componentID, to: nil)
            }
        }
        return try extensions.replacingAppDataDictionary(with: dictionary)
    }
}
