import Nostr

extension Relay {
    /// REQ: opens (or replaces, R8) a subscription, sends stored matches newest first and EOSE (R12).
    mutating func subscribe(_ key: SubscriptionKey, _ filters: [Filter], now: UInt64) -> [RelayOutput] {
        if let refusal = tooManyFilters(key, filters) { return [refusal] }
        if !subscriptions.contains(key), subscriptions.count(for: key.connection) >= policy.maximumSubscriptionsPerConnection {
            record("refuse REQ \(key.id): too many subscriptions")
            return [
                closed(
                    key.id,
                    MachineReadablePrefix.rateLimited.message(
                        "at most \(policy.maximumSubscriptionsPerConnection) open subscriptions per connection"), to: key.connection)
            ]
        }
        var budget = ScanBudget(policy.maximumEventsScannedPerRequest)
        guard let stored = try? query(filters, now: now, for: key.connection, budget: &budget) else {
            return [tooExpensive(key)]
        }
        var out = stored.map { eventFrame($0, for: key) }
        out.append(endOfStoredEvents(key.id, to: key.connection))
        subscriptions.open(key, filters: filters)
        return out
    }

    /// COUNT (NIP-45): the number of distinct stored matches, ignoring `limit`; nothing is sorted.
    mutating func count(_ key: SubscriptionKey, _ filters: [Filter], now: UInt64) -> [RelayOutput] {
        if let refusal = tooManyFilters(key, filters) { return [refusal] }
        var counted = 0
        var budget = ScanBudget(policy.maximumEventsScannedPerRequest)
        do {
            try store.forEachMatch(of: filters, now: now, honouringExpiration: policy.honoursExpiration, budget: &budget) { stored in
                if isVisible(stored, to: key.connection) { counted += 1 }
            }
        } catch {
            return [tooExpensive(key)]
        }
        return [
            RelayOutput(
                connection: key.connection,
                frame: RelayMessage.count(subscription: key.id, count: UInt64(counted)).json(),
                meaning: .count(key.id)
            )
        ]
    }

    /// A REQ or COUNT with more filters than the policy allows is refused with CLOSED before any
    /// work: each filter is a scan of the store, so the filter count bounds the work of one frame.
    private mutating func tooManyFilters(_ key: SubscriptionKey, _ filters: [Filter]) -> RelayOutput? {
        guard filters.count > policy.maximumFiltersPerRequest else { return nil }
        record("refuse \(key.id): \(filters.count) filters")
        return closed(
            key.id,
            MachineReadablePrefix.rateLimited.message(
                "at most \(policy.maximumFiltersPerRequest) filters per request"), to: key.connection)
    }

    private mutating func tooExpensive(_ key: SubscriptionKey) -> RelayOutput {
        let bound = policy.maximumEventsScannedPerRequest
        record("refuse \(key.id): over \(bound) events to examine")
        return closed(
            key.id,
            MachineReadablePrefix.rateLimited.message(
                "query too broad: it would examine more than \(bound) stored events"), to: key.connection)
    }

    /// R9–R11: the union of each filter's newest `limit` matches, deduplicated, in one NIP-01
    /// order (created_at descending, then id ascending); expired events are never served (R17).
    func query(_ filters: [Filter], now: UInt64, for connection: ConnectionID?, budget: inout ScanBudget)
        throws(ScanBudget.Exhausted) -> [StoredEvent]
    {
        var seen = Set<String>()
        var results: [StoredEvent] = []
        for filter in filters {
            for stored in try store.query(
                filter, now: now, defaultLimit: policy.defaultLimit, honouringExpiration: policy.honoursExpiration, budget: &budget)
            where seen.insert(stored.idHex).inserted {
                if let connection, !isVisible(stored, to: connection) { continue }
                results.append(stored)
            }
        }
        results.sort { $0.precedesInResults($1) }
        return results
    }
}
