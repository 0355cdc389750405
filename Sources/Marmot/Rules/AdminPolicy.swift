import ErrorCodes
import MLS
import Nostr

extension MarmotError.Code {
    /// A commit by a non-admin that is neither a pure self-update nor SelfRemove-only (MIP-03).
    package static let commitFromNonAdmin = Self("admin.commitFromNonAdmin")
    /// A change that would leave the group with no admin among its members.
    package static let noAdminRemains = Self("admin.noAdminRemains")
    /// An Update or UpdatePath leaf that changes the member's credential identity.
    package static let identityChanged = Self("admin.identityChanged")
}

/// What MIP-03 needs to know about a commit before it is applied.
package struct CommitSummary: Sendable {
    /// The committer's leaf index and Nostr identity.
    package var committer: UInt32
    package var committerIdentity: PublicKey
    /// The commit's proposals, resolved, with their senders.
    package var proposals: [(proposal: Proposal, sender: Sender)]
    /// The credential of the commit's UpdatePath leaf, if it has a path.
    package var pathCredential: Credential?
    /// The Nostr identity of each member leaf that sent a proposal the commit carries by reference.
    package var proposerIdentities: [UInt32: PublicKey]

    package init(
        committer: UInt32, committerIdentity: PublicKey, proposals: [(proposal: Proposal, sender: Sender)],
        pathCredential: Credential?, proposerIdentities: [UInt32: PublicKey] = [:]
    ) {
        self.committer = committer
        self.committerIdentity = committerIdentity
        self.proposals = proposals
        self.pathCredential = pathCredential
        self.proposerIdentities = proposerIdentities
    }
}

/// MIP-03 authorization of commits: admins may commit anything; other members only a pure
/// self-update or a commit of SelfRemove proposals.
package enum AdminPolicy {
    /// - Throws: `.commitFromNonAdmin`, `.identityChanged`.
    package static func authorize(_ commit: CommitSummary, admins: [PublicKey]) throws(MarmotError) {
        let ownCredential = Credential.basic(identity: commit.committerIdentity.bytes)
        if let path = commit.pathCredential, path != ownCredential, MarmotReceiverCheck.pathIdentity.isOn {
            throw MarmotError(.identityChanged, "the UpdatePath leaf changes the committer's identity")
        }
        // An Update replaces its proposer's leaf: it must keep the proposer's identity (not the
        // committer's, when the Update is carried by reference).
        for (proposal, sender) in commit.proposals {
            guard case .update(let leaf) = proposal, MarmotReceiverCheck.updateIdentity.isOn else { continue }
            let proposerIdentity: PublicKey? =
                switch sender {
                case .member(let proposer) where proposer == commit.committer: commit.committerIdentity
                case .member(let proposer): commit.proposerIdentities[proposer]
                default: nil
                }
            guard let proposerIdentity, leaf.credential == Credential.basic(identity: proposerIdentity.bytes) else {
                throw MarmotError(.identityChanged, "an Update leaf changes its proposer's identity")
            }
        }
        if MarmotReceiverCheck.proposerRights.isOn { try requireProposersRights(commit, admins: admins) }
        if admins.contains(commit.committerIdentity) || !MarmotReceiverCheck.commitAuthorization.isOn { return }
        let own = Sender.member(leafIndex: commit.committer)
        let pureSelfUpdate = commit.proposals.allSatisfy { item in
            if case .update = item.proposal { return item.sender == own }
            return false
        }
        let selfRemoveOnly =
            !commit.proposals.isEmpty
            && commit.proposals.allSatisfy { item in
                if case .selfRemove = item.proposal { return true }
                return false
            }
        guard pureSelfUpdate || selfRemoveOnly else {
            throw MarmotError(
                .commitFromNonAdmin, "\(commit.committerIdentity.hex) is not an admin and the commit is not a self-update or SelfRemove")
        }
    }

    /// A proposal carried by reference keeps its proposer's rights, whoever commits it: a non-admin
    /// may propose only to leave (SelfRemove, or a Remove of its own leaf) or to update its own
    /// leaf. Otherwise a non-admin's Add or Remove, stored by every member, would ride along in the
    /// next admin commit (RFC 9420 §12.4 commits every valid pending proposal), and any member could
    /// remove others or add a leaf in an admin's name.
    /// - Throws: `.commitFromNonAdmin` naming the proposal and its proposer.
    static func requireProposersRights(_ commit: CommitSummary, admins: [PublicKey]) throws(MarmotError) {
        for (proposal, sender) in commit.proposals {
            guard case .member(let proposer) = sender, proposer != commit.committer else { continue }
            if proposalAllowedToNonAdmin(proposal, proposer: proposer) { continue }
            guard let identity = commit.proposerIdentities[proposer] else {
                throw MarmotError(.commitFromNonAdmin, "a proposal by reference from leaf \(proposer), whose identity is unknown")
            }
            if admins.contains(identity) { continue }
            throw MarmotError(
                .commitFromNonAdmin,
                "the commit carries a proposal of type \(proposal.type) from \(identity.hex), who is not an admin")
        }
    }

    /// What a non-admin may propose (MIP-03): leaving, or updating its own leaf.
    package static func proposalAllowedToNonAdmin(_ proposal: Proposal, proposer: UInt32) -> Bool {
        switch proposal {
        case .selfRemove, .update: true
        case .remove(let leaf): leaf == proposer
        default: false
        }
    }

    /// Checks that some admin is still a member after a commit.
    /// - Throws: `.noAdminRemains`.
    package static func requireAdmin(admins: [PublicKey], members: [PublicKey]) throws(MarmotError) {
        guard !Set(admins).isDisjoint(with: members) || !MarmotReceiverCheck.adminRemains.isOn else {
            throw MarmotError(.noAdminRemains, "no admin of the group data is a member")
        }
    }
}
