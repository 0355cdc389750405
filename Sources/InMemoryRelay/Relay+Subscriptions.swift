import Nostr

extension Relay {
    /// REQ: opens (or replaces, R8) a subscription, sends stored matches newest first and EOSE (R12).
    mutating func subscribe(_ key: SubscriptionKey, _ filters: [Filter], now: UInt64) -> [RelayOutput] {
        if !subscriptions.contains(key), subscriptions.count(for: key.connection) >= policy.maximumSubscriptionsPerConnection {
            record("refuse REQ \(key.id): too many subscriptions")
            return [closed(key.id, MachineReadablePrefix.rateLimited.message(
                "at most \(policy.maximumSubscriptionsPerConnection) open subscriptions per connection"), to: key.connection)]
        }
        var out = query(filters, now: now, for: key.connection).map { eventFrame($0, for: key) }
        out.append(endOfStoredEvents(key.id, to: key.connection))
        subscriptions.open(key, filters: filters)
        return out
    }

    /// COUNT (NIP-45): the number of stored matches, ignoring `limit`.
    mutating func count(_ key: SubscriptionKey, _ filters: [Filter], now: UInt64) -> [RelayOutput] {
        let total = UInt64(query(filters, now: now, for: key.connection, applyingLimits: false).count)
        return [RelayOutput(
            connection: key.connection,
            frame: RelayMessage.count(subscription: key.id, count: total).json(),
            meaning: .count(key.id)
        )]
    }

    /// R9–R11: the union of each filter's newest `limit` matches, deduplicated, in one NIP-01
    /// order (created_at descending, then id ascending); expired events are never served (R17).
    func query(_ filters: [Filter], now: UInt64, for connection: ConnectionID?, applyingLimits: Bool = true)
        -> [StoredEvent]
    {
        var seen = Set<String>()
        var results: [StoredEvent] = []
        for var filter in filters {
            if !applyingLimits { filter.limit = nil }
            for stored in store.query(
                filter, now: now, defaultLimit: applyingLimits ? policy.defaultLimit : nil, honouringExpiration: policy.honoursExpiration)
            where seen.insert(stored.idHex).inserted {
                if let connection, !isVisible(stored, to: connection) { continue }
                results.append(stored)
            }
        }
        results.sort { $0.precedesInResults($1) }
        return results
    }
}
