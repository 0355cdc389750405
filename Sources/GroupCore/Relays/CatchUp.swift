import Nostr

/// A group subscription on one relay whose stored events have not all arrived (no EOSE yet).
struct CatchUpKey: Hashable, Comparable, Sendable, Codable {
    let url: String
    let subscription: String

    static func < (a: Self, b: Self) -> Bool { (a.url, a.subscription) < (b.url, b.subscription) }
}

extension GroupCore {
    static func isGroupSubscription(_ subscription: SubscriptionID) -> Bool { subscription.rawValue.hasPrefix("g-") }

    /// A stored answer of at least this many events may have been cut by the relay's result cap,
    /// so the catch-up asks for what is older. Relays cap a REQ without `limit` at their default
    /// (rust-nostr's LocalRelay and strfry: 500) and say so nowhere in the answer; a relay capping
    /// below this is not paged (docs/group-core.md, "Catch-up through a result cap"). Above every
    /// catch-up of the default gate, so its traffic and pinned fingerprints are unchanged.
    static let catchUpPageThreshold = 200
    /// Pages one catch-up may ask for (each moves `until` back by at least a second).
    static let maximumCatchUpPages = 64

    /// The subscription that asks a relay for a group's older stored events, beside the group's
    /// standing one (which stays open for live events: a REQ with `until` would end those).
    static func pageSubscription(of subscription: String) -> String { subscription + "-page" }

    /// The relay has sent all it stores for a group subscription (EOSE, CLOSED, or it became
    /// unreachable): its events are handled oldest first (created_at, then id), so that a member
    /// catching up several commits applies them in the order they were made. Handed newest first,
    /// an engine fails the later commit (its epoch is not reached yet), and MDK and our engine
    /// both remember that failure: the member forks.
    ///
    /// An answer that may have been cut by the relay's cap (`catchUpPageThreshold`) is not handed
    /// over yet: a page REQ asks for the events at or before its oldest `created_at` (`until` is
    /// inclusive, so a second shared across the cut is asked for whole), and the events wait for
    /// the last page. Paging ends with an answer under the threshold, one that reaches no further
    /// back (more events in one second than the cap: no NIP-01 filter tells them apart, noted),
    /// `maximumCatchUpPages`, or the relay lost.
    func caughtUp(_ key: CatchUpKey, relayLost: Bool = false) async {
        // The refused welcomes are dropped only after the events: a removal among them retries them.
        defer { catchUp.dropRefusedWelcomesIfNoneReturning() }
        let tally = catchUp.tallies[key]
        let wasReturning = catchUp.returning.contains(key)
        guard let stored = catchUp.end(key) else { return }
        let earlier = catchUp.paging.removeValue(forKey: key)
        if earlier != nil, !relayLost { emit(.send(url: key.url, message: .close(SubscriptionID(key.subscription)))) }
        var events = (earlier?.events ?? []) + stored
        if let tally, tally.count >= Self.catchUpPageThreshold, configuration.behaviour.recovery.pagesCatchUp {
            let pages = earlier?.pages ?? 0
            let reachesFurther = earlier.map { tally.oldest < $0.until } ?? true
            if !relayLost, reachesFurther, pages < Self.maximumCatchUpPages,
                let (pageKey, filter) = olderPage(after: key, until: tally.oldest)
            {
                catchUp.paging[pageKey] = CatchUpPages(
                    events: events, pages: pages + 1, until: tally.oldest, returning: earlier?.returning ?? wasReturning)
                catchUp.begin(pageKey)
                if earlier?.returning ?? wasReturning { catchUp.beginReturning(pageKey) }
                note("catch-up at \(key.url): \(tally.count) stored events, asking for those until \(tally.oldest) (page \(pages + 1))")
                emit(.send(url: key.url, message: .request(subscription: SubscriptionID(pageKey.subscription), filters: [filter])))
                return
            }
            if !reachesFurther {
                note("catch-up at \(key.url): \(tally.count) stored events in second \(tally.oldest) alone; older ones unreachable")
            } else if !relayLost, pages >= Self.maximumCatchUpPages {
                note("catch-up at \(key.url): stopped after \(pages) pages")
            }
        }
        if earlier != nil {
            var kept = Set<EventID>()
            events = events.filter { kept.insert($0.id).inserted }.sorted(by: Event.inMIP03Order)
        }
        for event in events {
            guard firstSighting(of: event) else { continue }
            await receiveGroupEvent(event)
        }
    }

    /// The page subscription following `key` (a group's standing subscription or its page) and
    /// its filter: the chat's filter up to `until`; nil when the subscription is no chat's.
    private func olderPage(after key: CatchUpKey, until: UInt64) -> (CatchUpKey, Filter)? {
        let standing = key.subscription.hasSuffix("-page") ? String(key.subscription.dropLast("-page".count)) : key.subscription
        guard let chat = chats.values.first(where: { Self.groupSubscription($0.chatID).rawValue == standing }) else { return nil }
        var filter = groupFilter(chat.chatID)
        filter.until = until
        return (CatchUpKey(url: key.url, subscription: Self.pageSubscription(of: standing)), filter)
    }
}
