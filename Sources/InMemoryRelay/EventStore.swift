import Nostr

/// How many stored events one frame may make the relay examine: each filter's candidate list is
/// paid for before it is scanned, so an expensive REQ or COUNT is refused instead of stalling
/// every other connection of a single-threaded relay.
struct ScanBudget: Sendable {
    struct Exhausted: Error {}
    private(set) var remaining: Int

    init(_ remaining: Int) { self.remaining = remaining }

    static var unlimited: ScanBudget { ScanBudget(.max) }

    mutating func spend(_ count: Int) throws(Exhausted) {
        guard count <= remaining else { throw Exhausted() }
        remaining -= count
    }
}

/// The stored events of one relay, with the indexes that queries and NIP-01/09 rules need.
///
/// Events live in append-only slots; removal leaves a hole that the indexes skip, which keeps every
/// operation free of array shifting. Index lists may therefore name dead slots.
struct EventStore: Sendable {
    /// Why an event was not stored.
    enum Refusal: Equatable, Sendable {
        /// Same id already stored (NIP-01: answer `true`, "duplicate:").
        case duplicate
        /// A NIP-09 deletion by the author covers this event.
        case deleted
        /// A newer (or equal-time, lower-id) version of this replaceable/addressable event is stored.
        case superseded
    }

    private var slots: [StoredEvent?] = []
    private var slotByID: [String: Int] = [:]
    private var slotsByKind: [Kind: [Int]] = [:]
    private var slotsByAuthor: [String: [Int]] = [:]
    private var slotsByTag: [TagKey: [Int]] = [:]
    private var slotByAddress: [Address: Int] = [:]
    /// id -> pubkeys that asked for its deletion (NIP-09 `e`); only the author's request blocks a
    /// re-publish, and the author may not be known until the event arrives.
    private var deletedIDs: [String: Set<String>] = [:]
    /// address -> newest `created_at` covered by a deletion (NIP-09 `a`).
    private var deletedAddresses: [Address: UInt64] = [:]

    /// Number of events currently stored.
    private(set) var count = 0

    func contains(idHex: String) -> Bool { slotByID[idHex] != nil }

    func event(idHex: String) -> StoredEvent? { slotByID[idHex].flatMap { slots[$0] } }

    /// Checks whether `stored` may be stored, without storing it.
    func refusal(for stored: StoredEvent) -> Refusal? {
        if contains(idHex: stored.idHex) { return .duplicate }
        if deletedIDs[stored.idHex]?.contains(stored.pubkeyHex) == true { return .deleted }
        guard let address = Address(of: stored) else { return nil }
        if let until = deletedAddresses[address], stored.event.createdAt <= until { return .deleted }
        if let slot = slotByAddress[address], let current = slots[slot], !Self.replaces(stored, current) {
            return .superseded
        }
        return nil
    }

    /// NIP-01: a newer `created_at` wins; on a tie the lower id is kept.
    private static func replaces(_ candidate: StoredEvent, _ current: StoredEvent) -> Bool {
        if candidate.event.createdAt != current.event.createdAt {
            return candidate.event.createdAt > current.event.createdAt
        }
        return candidate.idHex < current.idHex
    }

    /// Stores `stored` (the caller has checked `refusal(for:)`) and returns the versions it
    /// replaced.
    mutating func insert(_ stored: StoredEvent) -> [StoredEvent] {
        var replaced: [StoredEvent] = []
        let address = Address(of: stored)
        if let address, let slot = slotByAddress[address], let current = slots[slot] {
            replaced.append(current)
            remove(slot: slot)
        }
        let slot = slots.count
        slots.append(stored)
        count += 1
        slotByID[stored.idHex] = slot
        slotsByKind[stored.event.kind, default: []].append(slot)
        slotsByAuthor[stored.pubkeyHex, default: []].append(slot)
        for key in stored.indexedTags { slotsByTag[key, default: []].append(slot) }
        if let address { slotByAddress[address] = slot }
        return replaced
    }

    private mutating func remove(slot: Int) {
        guard let stored = slots[slot] else { return }
        slots[slot] = nil
        count -= 1
        slotByID[stored.idHex] = nil
        if let address = Address(of: stored), slotByAddress[address] == slot { slotByAddress[address] = nil }
    }

    /// Applies a stored NIP-09 deletion request and returns the events it removed.
    ///
    /// Only the author's own events are removed (NIP-09 "same pubkey"); gift wraps addressed to the
    /// requester by `p` count as theirs (NIP-59). A deletion of a deletion has no effect.
    mutating func applyDeletion(_ request: StoredEvent) -> [StoredEvent] {
        var removed: [StoredEvent] = []
        for tag in request.event.tags where tag.count >= 2 {
            switch tag[0] {
            case "e":
                let target = tag[1]
                if let slot = slotByID[target], let stored = slots[slot] {
                    guard stored.event.kind != .deletion else { continue }
                    let ownWrap = stored.event.kind == .giftWrap && stored.event.firstTagValue("p") == request.pubkeyHex
                    guard stored.pubkeyHex == request.pubkeyHex || ownWrap else { continue }
                    removed.append(stored)
                    remove(slot: slot)
                }
                deletedIDs[target, default: []].insert(request.pubkeyHex)
            case "a":
                guard let address = Address(aTagValue: tag[1]), address.pubkeyHex == request.pubkeyHex else { continue }
                let until = max(deletedAddresses[address] ?? 0, request.event.createdAt)
                deletedAddresses[address] = until
                if let slot = slotByAddress[address], let stored = slots[slot], stored.event.createdAt <= until {
                    removed.append(stored)
                    remove(slot: slot)
                }
            default: continue
            }
        }
        return removed
    }

    /// Stored events matching `filter` and (when honouring NIP-40) not expired at `now`, in NIP-01
    /// order, cut to `limit`.
    ///
    /// With a limit, only the best `limit` matches are kept while scanning (a bounded heap), so a
    /// small `limit` over a large store costs O(n log limit), not a sort of every match. Each
    /// stored event examined spends one unit of `budget`.
    /// - Throws: `ScanBudget.Exhausted` when the budget runs out first.
    func query(_ filter: Filter, now: UInt64, defaultLimit: Int?, honouringExpiration: Bool = true, budget: inout ScanBudget)
        throws(ScanBudget.Exhausted) -> [StoredEvent]
    {
        let limit = filter.limit ?? defaultLimit
        if limit == 0 { return [] }
        guard let limit else {
            var hits: [StoredEvent] = []
            try forEachMatch(of: [filter], now: now, honouringExpiration: honouringExpiration, budget: &budget) { hits.append($0) }
            return hits.sorted { $0.precedesInResults($1) }
        }
        var best = BestResults(capacity: limit)
        try forEachMatch(of: [filter], now: now, honouringExpiration: honouringExpiration, budget: &budget) { best.offer($0) }
        return best.sorted()
    }

    /// Calls `body` once for each stored event matching any of `filters` (limits ignored), each
    /// event once, in slot order. Candidates come from every filter's smallest index list.
    /// - Throws: `ScanBudget.Exhausted` when examining the candidates would exceed `budget`.
    func forEachMatch(
        of filters: [Filter], now: UInt64, honouringExpiration: Bool, budget: inout ScanBudget, _ body: (StoredEvent) -> Void
    ) throws(ScanBudget.Exhausted) {
        var seen = Set<Int>()
        for filter in filters {
            let candidates = candidateSlots(for: filter)
            try budget.spend(candidates.count)
            for slot in candidates where !seen.contains(slot) {
                guard let stored = slots[slot], !(honouringExpiration && stored.isExpired(at: now)), stored.matches(filter) else {
                    continue
                }
                seen.insert(slot)
                body(stored)
            }
        }
    }

    /// The smallest index list that every match must appear in (possibly with duplicates).
    private func candidateSlots(for filter: Filter) -> [Int] {
        if let ids = filter.ids { return ids.compactMap { slotByID[$0] } }
        var best: [Int]?
        func consider(_ list: [Int]) {
            if let current = best, current.count <= list.count { return }
            best = list
        }
        for (letter, values) in filter.tags {
            consider(values.flatMap { slotsByTag[TagKey(letter: letter, value: $0)] ?? [] })
        }
        if let authors = filter.authors { consider(authors.flatMap { slotsByAuthor[$0] ?? [] }) }
        if let kinds = filter.kinds { consider(kinds.flatMap { slotsByKind[$0] ?? [] }) }
        return best ?? Array(slots.indices)
    }
}
