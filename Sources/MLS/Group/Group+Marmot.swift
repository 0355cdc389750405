// Read-only views Marmot needs to apply its admin rules (MIP-03) *before* a commit is applied:
// the authenticated content of a message of this epoch, and the proposals a commit covers. Read
// only, but for `useUpKey`, which spends the key of a message read and then not applied.
import TLSCodec

extension MLSMessage {
    /// The epoch a framed (public or private) message belongs to; nil for other wire formats.
    public var framedEpoch: UInt64? {
        switch body {
        case .publicMessage(let m): m.content.epoch
        case .privateMessage(let m): m.epoch
        default: nil
        }
    }

    /// Whether a framed message carries a commit (RFC 9420 §6: ContentType commit(3)); a
    /// PrivateMessage says so in its clear header.
    public var isFramedCommit: Bool {
        switch body {
        case .publicMessage(let m): if case .commit = m.content.content { true } else { false }
        case .privateMessage(let m): m.contentType == 3
        default: false
        }
    }
}

extension Group {
    /// Unprotects a message of the current epoch on a copy of the secret tree and verifies its
    /// signature, without applying it (the group is unchanged).
    /// - Throws: `.wrongEpoch`, `.decryptionFailed`, `.badMembershipTag`, `.badSignature`, `.malformed`.
    public func inspect(_ message: MLSMessage) throws(MLSError) -> AuthenticatedContent {
        var copy = self
        let content: AuthenticatedContent
        switch message.body {
        case .publicMessage(let m):
            try checkEpoch(m.content.groupID, m.content.epoch)
            content = try m.unprotect(suite: suite, membershipKey: secrets.membershipKey, context: context)
        case .privateMessage(let m):
            try checkEpoch(m.groupID, m.epoch)
            content = try m.unprotect(
                suite: suite, secretTree: &copy.secretTree, senderDataSecret: secrets.senderDataSecret)
        default:
            throw MLSError(.malformed, "wire format \(message.body.wireFormat) is not a framed message")
        }
        // The same checks, under the same switches, as `process`: a check switched off is off in
        // every pass our engine makes over a message.
        try requireNonBlankSender(content.content.sender)
        if ReceiverCheck.signature.isOn {
            try content.verifySignature(
                suite: suite, publicKey: signatureKey(of: content.content.sender, content: content.content.content),
                context: context)
        }
        return content
    }

    /// Uses up the key of a PrivateMessage of the current epoch that the caller read (`inspect`)
    /// and will not apply: a proposal it ignores or refuses. RFC 9420 §9.2 consumes a
    /// generation's key with its decryption, whatever the receiver then makes of the content; a
    /// receiver that reads on a copy and keeps nothing lags one generation per such message
    /// behind its sender, and past the forward window (1,024) the sender's next message no
    /// longer opens. The message is authenticated as by `inspect` before the ratchet moves: only
    /// its sender can spend its sender's keys. A PublicMessage has no key to use up.
    /// - Throws: what `inspect` throws, and `.keyConsumed` for a generation already used.
    public mutating func useUpKey(of message: MLSMessage) throws(MLSError) {
        guard case .privateMessage(let m) = message.body else { return }
        try checkEpoch(m.groupID, m.epoch)
        var tree = secretTree
        let content = try m.unprotect(suite: suite, secretTree: &tree, senderDataSecret: secrets.senderDataSecret)
        try requireNonBlankSender(content.content.sender)
        if ReceiverCheck.signature.isOn {
            try content.verifySignature(
                suite: suite, publicKey: signatureKey(of: content.content.sender, content: content.content.content),
                context: context)
        }
        secretTree = tree
    }

    /// The proposals `commit` covers, references resolved against this epoch's received proposals.
    /// - Throws: `.invalidProposal` for a reference to a proposal this member never received.
    public func resolvedProposals(of commit: Commit, committer: Sender) throws(MLSError) -> [(
        proposal: Proposal, sender: Sender
    )] {
        var out: [(proposal: Proposal, sender: Sender)] = []
        for item in commit.proposals {
            switch item {
            case .proposal(let p): out.append((p, committer))
            case .reference(let ref):
                guard let pending = pendingProposals[ref] else {
                    throw MLSError(.unknownProposal, "commit references an unknown proposal")
                }
                out.append((pending.proposal, pending.sender))
            }
        }
        return out
    }

    /// True when proposals received this epoch wait for a commit.
    public var hasPendingProposals: Bool { !pendingOrder.isEmpty }
}
