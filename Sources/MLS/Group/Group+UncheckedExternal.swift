// An unchecked external commit (RFC 9420 §12.4.3.2): a new member joins from what a GroupInfo
// publishes (tree, GroupContext, interim transcript hash, external_pub) by committing an
// ExternalInit with an UpdatePath from its own new leaf. Our engine never joins this way; the
// builder exists so the receiver's rules for new_member_commit senders can be attacked. It skips
// the sender-side checks as the other unchecked builders do, and is `package` for the same reason.
import TLSCodec

extension Group {
    /// A commit framed as `new_member_commit` by `joiner`: an ExternalInit to this group's
    /// external_pub, then `proposals` by value, then, when `byReference`, every proposal this
    /// member holds pending. Only public state of the group goes in, plus the joiner's own keys.
    /// - Returns: the commit as a PublicMessage (no membership tag: the sender is no member).
    package func uncheckedExternalCommit(
        joiner: KeyPackagePrivate, adding proposals: [Proposal], byReference: Bool,
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> MLSMessage {
        let nextEpoch = try self.nextEpoch()
        let external = try HPKE.senderExport(
            suite: suite, recipient: secrets.externalPublicKey(), info: [], exporterContext: mlsLabel("external init secret"),
            length: suite.hashLength, ephemeral: suite.randomBytes(32, using: &generator))
        var items: [ProposalOrRef] = []
        var resolved: [(Proposal, Sender)] = []
        if byReference {
            for ref in pendingOrder {
                guard let pending = pendingProposals[ref] else { continue }
                items.append(.reference(ref))
                resolved.append(pending)
            }
        }
        for proposal in [.externalInit(kemOutput: external.enc)] + proposals {
            items.append(.proposal(proposal))
            resolved.append((proposal, .newMemberCommit))
        }
        var applied = try applyProposals(resolved, committer: .newMemberCommit, now: nil)
        // §12.4.3.2: the joiner takes the leftmost free leaf after the proposals, as the receiver does.
        let sender = applied.tree.add(joiner.keyPackage.leafNode)
        let (suite, groupID, confirmed, extensions) = (suite, groupID, context.confirmedTranscriptHash, applied.extensions)
        let created = try applied.tree.createUpdatePath(
            suite: suite, sender: sender, leafNode: joiner.keyPackage.leafNode, signaturePrivateKey: joiner.signaturePrivateKey,
            groupID: groupID, excluded: Set(applied.joiners),
            context: { treeHash in
                GroupContext(
                    cipherSuite: suite.id, groupID: groupID, epoch: nextEpoch, treeHash: treeHash,
                    confirmedTranscriptHash: confirmed, extensions: extensions)
            }, using: &generator)

        let framed = FramedContent(
            groupID: groupID, epoch: epoch, sender: .newMemberCommit, authenticatedData: [],
            content: .commit(Commit(proposals: items, path: created.path)))
        var signed = try AuthenticatedContent.sign(
            framed, wireFormat: WireFormat.publicMessage, context: context, suite: suite, signaturePrivateKey: joiner.signaturePrivateKey)
        let confirmedHash = suite.confirmedTranscriptHash(interim: interimTranscriptHash, commit: signed)
        let newContext = GroupContext(
            cipherSuite: suite.id, groupID: groupID, epoch: nextEpoch, treeHash: applied.tree.treeHash(suite: suite),
            confirmedTranscriptHash: confirmedHash, extensions: applied.extensions)
        let newSecrets = EpochSecrets(
            suite: suite, initSecret: external.secret, commitSecret: created.commitSecret,
            pskSecret: suite.pskSecret(try resolvePSKs(applied.psks)), groupContext: try serialize(newContext))
        signed.auth.confirmationTag = suite.confirmationTag(
            confirmationKey: newSecrets.confirmationKey, confirmedTranscriptHash: confirmedHash)
        return MLSMessage(
            body: .publicMessage(try PublicMessage.protect(signed, suite: suite, membershipKey: [], context: context)))
    }
}
