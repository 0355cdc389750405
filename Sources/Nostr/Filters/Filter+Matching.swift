// Matching an event against a filter (NIP-01). Only the first value of each tag is indexed, so a
// tag filter `#h: [G]` matches `["h", G, ...]` but not `["h", X, G]`; tag names are case-sensitive.

extension Filter {
    /// Whether `event` meets every condition of this filter. `limit` plays no part here.
    public func matches(_ event: Event) -> Bool {
        matches(idHex: event.id.hex, pubkeyHex: event.pubkey.hex, kind: event.kind, createdAt: event.createdAt, tags: event.tags)
    }

    /// Whether an event with these fields meets every condition; lets callers that index many
    /// events keep the hex forms of ids and keys instead of recomputing them per filter.
    public func matches(idHex: String, pubkeyHex: String, kind: Kind, createdAt: UInt64, tags eventTags: [[String]]) -> Bool {
        if let kinds, !kinds.contains(kind) { return false }
        if let since, createdAt < since { return false }
        if let until, createdAt > until { return false }
        if let authors, !authors.contains(pubkeyHex) { return false }
        if let ids, !ids.contains(idHex) { return false }
        for (letter, values) in tags {
            let hit = eventTags.contains { tag in tag.count >= 2 && tag[0] == letter && values.contains(tag[1]) }
            if !hit { return false }
        }
        return true
    }
}
