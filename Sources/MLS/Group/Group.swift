// The group state machine of RFC 9420 §11–12, sans I/O: every operation takes its randomness (and,
// where validity windows matter, the time) as parameters and returns the messages to send; nothing
// here touches a clock, a socket or the system RNG.
import ErrorCodes

extension MLSError.Code {
    /// A message for another group or epoch.
    public static let wrongEpoch = Self("mls.wrongEpoch")
    /// A Welcome with no entry for any of our key packages.
    public static let notInvited = Self("mls.notInvited")
    /// A commit or proposal that breaks a validation rule of §12.
    public static let invalidProposal = Self("mls.invalidProposal")
    /// A commit names by reference a proposal we have not received (yet): unlike a broken rule,
    /// it can go through once the proposal arrives (RFC 9420 §12.4: proposals by reference).
    public static let unknownProposal = Self("mls.unknownProposal")
    /// A commit's confirmation tag does not match.
    public static let badConfirmationTag = Self("mls.badConfirmationTag")
    /// An operation that needs us to be a member after we were removed.
    public static let notAMember = Self("mls.notAMember")
}

/// One member's view of a group at one epoch.
public struct Group: Sendable {
    public let suite: CipherSuite
    public internal(set) var context: GroupContext
    public internal(set) var tree: RatchetTree
    // Private keys and the epoch's secrets: `package`, so that the vended MLS library never hands
    // them out (tests, our engine and the benchmarks are in this package).
    package internal(set) var privateKeys: TreePrivateKeys
    package internal(set) var secrets: EpochSecrets
    package internal(set) var secretTree: SecretTree
    public internal(set) var interimTranscriptHash: [UInt8]
    /// The confirmation tag of the commit that started this epoch (for GroupInfo).
    public internal(set) var confirmationTag: [UInt8]
    let signaturePrivateKey: [UInt8]
    /// Proposals received this epoch, by reference, with their senders.
    var pendingProposals: [[UInt8]: (proposal: Proposal, sender: Sender)] = [:]
    /// Proposal references in arrival order, so a commit we create covers them deterministically.
    var pendingOrder: [[UInt8]] = []
    /// Private keys of leaves we proposed in Update proposals this epoch, by public key.
    var pendingLeafKeys: [[UInt8]: [UInt8]] = [:]
    /// External PSKs this member holds, by id.
    public var externalPSKs: [[UInt8]: [UInt8]] = [:]
    /// resumption_psk of earlier epochs of this group, by epoch.
    var resumptionPSKs: [UInt64: [UInt8]] = [:]
    /// False once a commit removed us.
    public internal(set) var isActive = true
    /// The ReInit proposal a commit applied; once set, this group only waits to be replaced (§11.2)
    /// and refuses to send anything.
    public internal(set) var reInit: Proposal?

    /// Throws unless we may still send in this group.
    func checkCanSend() throws(MLSError) {
        guard isActive else { throw MLSError(.notAMember, "we were removed from this group") }
        guard reInit == nil else { throw MLSError(.notAMember, "the group was reinitialized") }
    }

    /// Our leaf index.
    public var leafIndex: UInt32 { privateKeys.leaf }
    public var epoch: UInt64 { context.epoch }
    public var groupID: [UInt8] { context.groupID }
    public var epochAuthenticator: [UInt8] { secrets.epochAuthenticator }

    /// MLS-Exporter of this epoch.
    public func export(label: String, context exportContext: [UInt8], length: Int) -> [UInt8] {
        secrets.exporter(label: label, context: exportContext, length: length)
    }

    /// The next epoch number.
    /// - Throws: `.wrongEpoch` at the last representable epoch (an epoch that came from a Welcome
    ///   may be anything, so this must not trap).
    /// How many epochs' resumption PSKs a group keeps, the current one included (issue 30, N10):
    /// a resumption PSK of an older epoch is then `mls.missingPSK`. Marmot never injects one;
    /// RFC 9420 §8.6 leaves the retention to the application.
    public static let retainedResumptionPSKs: UInt64 = 32

    func nextEpoch() throws(MLSError) -> UInt64 {
        guard epoch < .max else { throw MLSError(.wrongEpoch, "the group is at the last epoch") }
        return epoch + 1
    }

    /// Sets up epoch state from the secrets of a new epoch.
    mutating func enterEpoch(_ newSecrets: EpochSecrets) {
        resumptionPSKs[context.epoch] = newSecrets.resumptionPSK
        // Bounded (issue 30, N10): every epoch added a secret forever, copied into each past epoch
        // a member keeps. Epochs come from Welcomes and may be near 0 or UInt64.max: no overflow.
        if context.epoch >= Self.retainedResumptionPSKs, ReceiverCheck.resumptionPSKRetention.isOn {
            let oldest = context.epoch - Self.retainedResumptionPSKs + 1
            for epoch in resumptionPSKs.keys where epoch < oldest { resumptionPSKs[epoch] = nil }
        }
        secrets = newSecrets
        secretTree = SecretTree(suite: suite, encryptionSecret: newSecrets.encryptionSecret, leafCount: tree.leafCount)
        pendingProposals = [:]
        pendingOrder = []
        pendingLeafKeys = [:]
    }

    /// Our private keys that still match `newTree`: keys of blanked or replaced nodes are dropped,
    /// and our leaf takes the key of an Update we proposed if the commit applied it.
    func keys(matching newTree: RatchetTree) -> TreePrivateKeys {
        var keys = privateKeys
        let ownNode = TreeMath.nodeIndex(ofLeaf: leafIndex)
        if let leafKey = newTree.leaf(leafIndex)?.encryptionKey, let pending = pendingLeafKeys[leafKey] {
            keys.keys[ownNode] = pending
        }
        keys.keys = keys.keys.filter { node, privateKey in
            guard let publicKey = newTree[node: node]?.encryptionKey else { return false }
            return (try? suite.hpkePublicKey(of: privateKey)) == publicKey
        }
        return keys
    }

    /// Resolves PSK ids to their secrets from what this member holds.
    /// - Throws: `.missingPSK`.
    func resolvePSKs(_ ids: [PreSharedKeyID]) throws(MLSError) -> [ResolvedPSK] {
        var out: [ResolvedPSK] = []
        for id in ids {
            switch id.kind {
            case .external(let name):
                guard let secret = externalPSKs[name] else { throw MLSError(.missingPSK, "external PSK not held") }
                out.append(ResolvedPSK(id: id, secret: secret))
            case .resumption(_, let group, let epoch):
                guard group == groupID, let secret = resumptionPSKs[epoch] else {
                    throw MLSError(.missingPSK, "resumption PSK for epoch \(epoch) not held")
                }
                out.append(ResolvedPSK(id: id, secret: secret))
            }
        }
        return out
    }

    /// §6: a member sender's leaf_index names a non-blank leaf. (Without this check the signature
    /// check still refuses: a blank leaf has no key to verify with.)
    func requireNonBlankSender(_ sender: Sender) throws(MLSError) {
        if case .member(let leaf) = sender, tree.leaf(leaf) == nil, ReceiverCheck.blankLeafSender.isOn {
            throw MLSError(.invalidSender, "sender leaf \(leaf) is blank")
        }
    }

    /// The signature key that authenticates `sender` in this epoch.
    func signatureKey(of sender: Sender, content: Content) throws(MLSError) -> [UInt8] {
        switch sender {
        case .member(let leaf):
            guard let node = tree.leaf(leaf) else { throw MLSError(.badSignature, "no signature key: sender leaf \(leaf) is blank") }
            return node.signatureKey
        case .external(let index):
            guard let data = context.extensions.data(ofType: ExtensionType.externalSenders) else {
                throw MLSError(.invalidSender, "no external_senders extension")
            }
            let senders = try decodeExactly(ExternalSenders.self, from: data).senders
            guard Int(index) < senders.count else { throw MLSError(.invalidSender, "external sender \(index) unknown") }
            return senders[Int(index)].signatureKey
        case .newMemberProposal:
            guard case .proposal(.add(let keyPackage)) = content else {
                throw MLSError(.invalidSender, "new_member_proposal must carry an Add")
            }
            return keyPackage.leafNode.signatureKey
        case .newMemberCommit:
            guard case .commit(let commit) = content, let path = commit.path else {
                throw MLSError(.invalidSender, "new_member_commit must carry a commit with a path")
            }
            return path.leafNode.signatureKey
        }
    }
}
