import Nostr

/// Group events that cannot be handled as they arrive, and the rules for when they are handed
/// over (docs/group-core.md, "The catch-up book"):
/// - a group subscription's stored events wait for the relay's EOSE and go oldest first
///   (Relays/CatchUp.swift);
/// - events no key of ours opens yet wait for a commit that moves their chat on
///   (Groups/GroupCore+FutureEvents.swift);
/// - events refused while we were out of a group, and welcomes refused while a resubscription
///   caught up, wait for a welcome or a removal that makes them meaningful
///   (Groups/GroupCore+HeldWelcomes.swift).
/// Every list is bounded: the oldest entries go first.
struct CatchUpBook: Sendable {
    /// Events kept per chat, for a later epoch or for a welcome back.
    static let maximumFutureEvents = 64
    /// How many times a kept event is handed over again (history from before our join never opens).
    static let maximumFutureRetries = 8
    static let maximumRefusedWelcomes = 8

    /// Stored group events a relay is sending for a subscription of ours, until its EOSE: relays
    /// send history newest first (NIP-01), and commits must be applied oldest first.
    var buffers: [CatchUpKey: [Event]] = [:]
    /// Group catch-ups of resubscriptions (back from an outage), not of first subscriptions: only
    /// they can hold a removal that a welcome in the inbox undoes.
    var returning: Set<CatchUpKey> = []
    /// Group events no key opened yet, by chat, kept for a retry once a commit moves the chat on.
    var futureEvents: [String: [FutureEvent]] = [:]
    /// Group events refused while we were out of their group, by chat: handed over again if a
    /// welcome takes us back.
    var eventsWhileRemoved: [String: [Event]] = [:]
    /// Welcomes refused while a resubscription caught up (we still held their group), tried again
    /// if that catch-up removes us.
    var refusedWelcomes: [(wrap: Event, opened: GiftWrap.Unwrapped)] = []
    /// How many stored events each catch-up under way received, and the oldest `created_at`
    /// among them (own events served back included: they count against the relay's cap too).
    var tallies: [CatchUpKey: CatchUpTally] = [:]
    /// Catch-ups asking for older pages: by the page subscription's key, what earlier pages
    /// brought (Relays/CatchUp.swift).
    var paging: [CatchUpKey: CatchUpPages] = [:]
    /// Kept events are being handed over again (a retry does not start another).
    var retrying = false
    /// The retry count of the kept event being handed over again.
    var retryCount = 0

    // MARK: - Catch-ups

    /// A group subscription was sent: its stored events wait for the relay's EOSE.
    mutating func begin(_ key: CatchUpKey) { buffers[key] = [] }

    /// The subscription `key` begun is a resubscription, back from an outage.
    mutating func beginReturning(_ key: CatchUpKey) { returning.insert(key) }

    /// Counts a stored event a catch-up under way received (before it is handled or buffered).
    mutating func tally(_ event: Event, for key: CatchUpKey) {
        guard buffers[key] != nil else { return }
        var tally = tallies[key] ?? CatchUpTally(count: 0, oldest: event.createdAt)
        tally.count += 1
        tally.oldest = min(tally.oldest, event.createdAt)
        tallies[key] = tally
    }

    /// Keeps `event` if `key` is catching up; false when it is not (handle the event now).
    mutating func buffer(_ event: Event, for key: CatchUpKey) -> Bool {
        guard buffers[key] != nil else { return false }
        buffers[key]?.append(event)
        return true
    }

    /// The catch-ups still under way at `url`, in order.
    func keys(at url: String) -> [CatchUpKey] { buffers.keys.sorted().filter { $0.url == url } }

    /// The relay has sent all it stores for `key`: its events, oldest first (MIP-03 order), or nil
    /// when `key` was not catching up. It no longer counts as returning.
    mutating func end(_ key: CatchUpKey) -> [Event]? {
        returning.remove(key)
        tallies[key] = nil
        return buffers.removeValue(forKey: key)?.sorted(by: Event.inMIP03Order)
    }

    /// Once no resubscription is catching up, welcomes refused meanwhile can no longer be undone
    /// by a removal of that catch-up: they are dropped.
    mutating func dropRefusedWelcomesIfNoneReturning() {
        if returning.isEmpty { refusedWelcomes = [] }
    }

    // MARK: - Events of a later epoch

    /// Keeps an event no key opens yet (once: a duplicate is ignored), the oldest dropped beyond
    /// `maximumFutureEvents`.
    mutating func keepForLaterEpoch(_ event: Event, in chatID: String, waitsForProposal: Bool) {
        var kept = futureEvents[chatID, default: []]
        guard !kept.contains(where: { $0.event.id == event.id }) else { return }
        kept.append(FutureEvent(event: event, retries: 0, waitsForProposal: waitsForProposal))
        if kept.count > Self.maximumFutureEvents { kept.removeFirst(kept.count - Self.maximumFutureEvents) }
        futureEvents[chatID] = kept
    }

    /// Whether a kept event of the chat waits for a proposal (so an arriving proposal may open it).
    func waitsForProposal(in chatID: String) -> Bool {
        futureEvents[chatID]?.contains(where: \.waitsForProposal) == true
    }

    /// The kept events of `chatID`, oldest first (MIP-03 order), taken out of the book; nil when none.
    mutating func takeFutureEvents(in chatID: String) -> [FutureEvent]? {
        guard let kept = futureEvents.removeValue(forKey: chatID), !kept.isEmpty else { return nil }
        return kept.sorted { Event.inMIP03Order($0.event, $1.event) }
    }

    /// Whether kept events of `chatID` are left to try.
    func hasFutureEvents(in chatID: String) -> Bool { futureEvents[chatID]?.isEmpty == false }

    /// A retried event still does not go through: kept again, with the retry it was
    /// (`retryCount`), unless it has had `maximumFutureRetries`.
    mutating func keepAfterRetry(_ event: Event, in chatID: String, waitsForProposal: Bool) {
        guard retryCount < Self.maximumFutureRetries else { return }
        futureEvents[chatID, default: []].append(FutureEvent(event: event, retries: retryCount, waitsForProposal: waitsForProposal))
    }

    // MARK: - Refused while out of a group

    /// Keeps a welcome refused while a resubscription catches up (once), the oldest dropped beyond
    /// `maximumRefusedWelcomes`; refused at any other time, a welcome is a replay and not kept.
    mutating func keepRefusedWelcome(_ wrap: Event, opened: GiftWrap.Unwrapped) {
        guard !returning.isEmpty, !refusedWelcomes.contains(where: { $0.wrap.id == wrap.id }) else { return }
        refusedWelcomes.append((wrap, opened))
        if refusedWelcomes.count > Self.maximumRefusedWelcomes {
            refusedWelcomes.removeFirst(refusedWelcomes.count - Self.maximumRefusedWelcomes)
        }
    }

    var hasRefusedWelcomes: Bool { !refusedWelcomes.isEmpty }

    /// The kept welcomes, oldest first, taken out of the book.
    mutating func takeRefusedWelcomes() -> [(wrap: Event, opened: GiftWrap.Unwrapped)] {
        defer { refusedWelcomes = [] }
        return refusedWelcomes
    }

    /// Keeps a group event refused while we are out of its group (once), the oldest dropped beyond
    /// `maximumFutureEvents`.
    mutating func keepWhileRemoved(_ event: Event, in chatID: String) {
        var kept = eventsWhileRemoved[chatID, default: []]
        guard !kept.contains(where: { $0.id == event.id }) else { return }
        kept.append(event)
        if kept.count > Self.maximumFutureEvents { kept.removeFirst(kept.count - Self.maximumFutureEvents) }
        eventsWhileRemoved[chatID] = kept
    }

    /// The events refused while we were out of `chatID`, oldest first (MIP-03 order), taken out
    /// of the book; nil when none were kept.
    mutating func takeEventsWhileRemoved(in chatID: String) -> [Event]? {
        eventsWhileRemoved.removeValue(forKey: chatID)?.sorted(by: Event.inMIP03Order)
    }
}

/// What a catch-up's answer held: how many stored events, and the oldest one's `created_at`.
struct CatchUpTally: Sendable, Equatable {
    var count: Int
    var oldest: UInt64
}

/// A catch-up that asks for older pages: the events earlier pages brought, how many pages were
/// asked for, the `until` of the last one, and whether it is a resubscription's.
struct CatchUpPages: Sendable {
    var events: [Event]
    var pages: Int
    var until: UInt64
    var returning: Bool
}
