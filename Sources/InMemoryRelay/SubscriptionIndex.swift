import Nostr

/// A live subscription: one connection's filters under one subscription id.
struct SubscriptionKey: Hashable, Comparable, Sendable {
    let connection: ConnectionID
    let id: SubscriptionID

    static func < (lhs: SubscriptionKey, rhs: SubscriptionKey) -> Bool {
        (lhs.connection, lhs.id) < (rhs.connection, rhs.id)
    }
}

/// Live subscriptions indexed so that a new event is checked only against filters that could
/// match it, not against every open filter.
///
/// Each filter is filed under one anchor that every matching event must carry: one of its ids,
/// else the values of one tag letter, else its authors, else its kinds; a filter with none of
/// these is filed under `.any`. An incoming event looks up the anchors it carries.
struct SubscriptionIndex: Sendable {
    private enum Anchor: Hashable, Sendable {
        case id(String)
        case tag(TagKey)
        case author(String)
        case kind(Kind)
        case any
    }

    private struct FilterRef: Hashable, Sendable {
        let key: SubscriptionKey
        let index: Int
    }

    private var filtersByKey: [SubscriptionKey: [Filter]] = [:]
    private var refsByAnchor: [Anchor: Set<FilterRef>] = [:]
    private var countByConnection: [ConnectionID: Int] = [:]

    func count(for connection: ConnectionID) -> Int { countByConnection[connection] ?? 0 }

    func contains(_ key: SubscriptionKey) -> Bool { filtersByKey[key] != nil }

    /// Opens `key`, replacing any subscription with the same id on the same connection.
    mutating func open(_ key: SubscriptionKey, filters: [Filter]) {
        remove(key)
        filtersByKey[key] = filters
        countByConnection[key.connection, default: 0] += 1
        for (index, filter) in filters.enumerated() {
            for anchor in Self.anchors(of: filter) {
                refsByAnchor[anchor, default: []].insert(FilterRef(key: key, index: index))
            }
        }
    }

    mutating func remove(_ key: SubscriptionKey) {
        guard let filters = filtersByKey.removeValue(forKey: key) else { return }
        countByConnection[key.connection, default: 1] -= 1
        for (index, filter) in filters.enumerated() {
            for anchor in Self.anchors(of: filter) {
                refsByAnchor[anchor]?.remove(FilterRef(key: key, index: index))
                if refsByAnchor[anchor]?.isEmpty == true { refsByAnchor[anchor] = nil }
            }
        }
    }

    mutating func removeAll(for connection: ConnectionID) {
        let keys = filtersByKey.keys.filter { $0.connection == connection }
        for key in keys { remove(key) }
        countByConnection[connection] = nil
    }

    /// Subscriptions with at least one filter matching `stored` (limit ignored: NIP-01 applies it
    /// to the initial query only), in (connection, id) order.
    func matching(_ stored: StoredEvent) -> [SubscriptionKey] {
        var hits = Set<SubscriptionKey>()
        func check(_ anchor: Anchor) {
            guard let refs = refsByAnchor[anchor] else { return }
            for ref in refs where !hits.contains(ref.key) {
                if let filters = filtersByKey[ref.key], stored.matches(filters[ref.index]) { hits.insert(ref.key) }
            }
        }
        check(.id(stored.idHex))
        for key in stored.indexedTags { check(.tag(key)) }
        check(.author(stored.pubkeyHex))
        check(.kind(stored.event.kind))
        check(.any)
        return hits.sorted()
    }

    private static func anchors(of filter: Filter) -> [Anchor] {
        if let ids = filter.ids { return ids.map(Anchor.id) }
        if let letter = filter.tags.keys.min(), let values = filter.tags[letter] {
            return values.map { .tag(TagKey(letter: letter, value: $0)) }
        }
        if let authors = filter.authors { return authors.map(Anchor.author) }
        if let kinds = filter.kinds { return kinds.map(Anchor.kind) }
        return [.any]
    }
}
