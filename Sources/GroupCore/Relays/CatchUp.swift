import Nostr

/// A group subscription on one relay whose stored events have not all arrived (no EOSE yet).
struct CatchUpKey: Hashable, Comparable, Sendable, Codable {
    let url: String
    let subscription: String

    static func < (a: Self, b: Self) -> Bool { (a.url, a.subscription) < (b.url, b.subscription) }
}

extension GroupCore {
    static func isGroupSubscription(_ subscription: SubscriptionID) -> Bool { subscription.rawValue.hasPrefix("g-") }

    /// The relay has sent all it stores for a group subscription (EOSE, CLOSED, or it became
    /// unreachable): its events are handled oldest first (created_at, then id), so that a member
    /// catching up several commits applies them in the order they were made. Handed newest first,
    /// an engine fails the later commit (its epoch is not reached yet), and MDK and our engine
    /// both remember that failure: the member forks.
    func caughtUp(_ key: CatchUpKey) async {
        // The refused welcomes are dropped only after the events: a removal among them retries them.
        defer { catchUp.dropRefusedWelcomesIfNoneReturning() }
        guard let stored = catchUp.end(key) else { return }
        for event in stored {
            guard firstSighting(of: event) else { continue }
            await receiveGroupEvent(event)
        }
    }
}
