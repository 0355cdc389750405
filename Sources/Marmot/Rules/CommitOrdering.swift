import Nostr

/// MIP-03's rule for competing commits of one epoch: the earlier `created_at` wins, ties go to the
/// lexicographically smaller event id.
package enum CommitOrdering {
    /// True when the commit event `candidate` should replace `applied`.
    package static func prefers(_ candidate: (createdAt: UInt64, id: EventID), over applied: (createdAt: UInt64, id: EventID))
        -> Bool
    {
        candidate.createdAt < applied.createdAt || (candidate.createdAt == applied.createdAt && candidate.id < applied.id)
    }
}
