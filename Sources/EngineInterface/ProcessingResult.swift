import Nostr

/// What a member's engine made of one kind-445 group event. Rejections are values, not thrown errors:
/// a peer breaking a MIP rule is an outcome a scenario asserts on.
public enum ProcessingResult: Hashable, Sendable {
    /// An authenticated application message.
    case applicationMessage(ReceivedMessage)
    /// A commit was applied (or was our own echo); the epoch advanced, or we were removed.
    case commit(MLSGroupID)
    /// A commit was applied on top of `competitor`, a commit MIP-03 had ranked second: the group
    /// built on the competitor, so the engine left `replaced` (the commit it had applied for that
    /// epoch, on which nothing was built) for the competitor and then this commit.
    case rivalCommit(MLSGroupID, replaced: EventID, competitor: EventID)
    /// A proposal the engine answered with its own commit, to publish and then merge.
    case proposal(GroupEvolution)
    /// A proposal stored for a later commit.
    case pendingProposal(MLSGroupID)
    /// A proposal the engine ignores, and why.
    case ignoredProposal(MLSGroupID, reason: String)
    case externalJoinProposal(MLSGroupID)
    /// Rejected without an engine error (stale epoch, duplicate, author mismatch…); `reason` is
    /// "unspecified" when the engine does not say (MDK 0.8.0).
    case unprocessable(MLSGroupID?, reason: String)
    /// The same event failed before.
    case previouslyFailed
    /// Rejected with a typed error (`.commitFromNonAdmin`, `.undecryptable`, …).
    case rejected(EngineError)
}
