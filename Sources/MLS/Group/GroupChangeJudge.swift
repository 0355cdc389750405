// The caller's say over a change before MLS accepts it. MLS checks what RFC 9420 (and the
// extensions draft) require; an application layered on top (Marmot: admin policy, required
// components, identity proofs) has rules of its own that need the *result* of a change — the
// next epoch's GroupContext and tree — and not only the proposals. The judge sees exactly that,
// once every MLS check has passed and before any state is touched, and refuses by throwing.
// MLS knows nothing of what the judge checks.
import ErrorCodes

extension MLSError.Code {
    /// The caller's judge refused a proposal, commit or Welcome that MLS itself accepts.
    public static let refusedByCaller = Self("mls.refusedByCaller")
}

/// A proposal a commit covers, with where it came from.
public struct CoveredProposal: Sendable, Equatable {
    public var proposal: Proposal
    /// Who proposed it: the committer for a proposal by value.
    public var sender: Sender
    /// The ProposalRef when the commit cites it by reference; nil when it is carried by value.
    public var reference: [UInt8]?
}

/// A received proposal message, before it is stored for a later commit.
public struct ProposalCandidate: Sendable {
    public var proposal: Proposal
    public var sender: Sender
    public var reference: [UInt8]
    public var context: GroupContext
    public var tree: RatchetTree
}

/// A commit that MLS accepts, and the epoch it leads to.
public struct CommitCandidate: Sendable {
    public var committer: Sender
    /// The proposals in the commit's order, references resolved.
    public var proposals: [CoveredProposal]
    /// The committer's new leaf, when the commit has an UpdatePath.
    public var pathLeaf: LeafNode?
    /// True for a commit this member is building (judged before it is sent).
    public var isOwn: Bool
    public var previousContext: GroupContext
    public var previousTree: RatchetTree
    /// The next epoch's GroupContext (extensions as the commit leaves them) and tree. When the
    /// commit removes this member, `context` is nil: a removed member learns no next epoch.
    public var context: GroupContext?
    public var tree: RatchetTree
}

/// A Welcome that MLS accepts, before this member joins.
public struct WelcomeCandidate: Sendable {
    public var groupInfo: GroupInfo
    public var tree: RatchetTree
    /// This member's leaf in `tree`.
    public var ownLeaf: UInt32
}

/// What the judge is asked about.
public enum GroupChange: Sendable {
    case proposal(ProposalCandidate)
    case commit(CommitCandidate)
    case welcome(WelcomeCandidate)
}

/// The caller's rule over group changes: return to accept, throw to refuse (any `MLSError`; a
/// caller with its own error type keeps it in a local and throws `.refusedByCaller` here).
public typealias GroupChangeJudge = (GroupChange) throws(MLSError) -> Void

/// The judge that accepts everything MLS accepts (the legacy behaviour).
@inline(__always) public func acceptEveryChange(_: GroupChange) throws(MLSError) {}
