// NIP-01 subscription filter.
//
//   {
//     "ids": <a list of event ids>,
//     "authors": <a list of lowercase pubkeys, the pubkey of an event must be one of these>,
//     "kinds": <a list of a kind numbers>,
//     "#<single-letter (a-zA-Z)>": <a list of tag values, for #e — a list of event ids, for #p — a list of pubkeys, etc.>,
//     "since": <an integer unix timestamp in seconds. Events must have a created_at >= to this to pass>,
//     "until": <an integer unix timestamp in seconds. Events must have a created_at <= to this to pass>,
//     "limit": <maximum number of events relays SHOULD return in the initial query>
//   }
//
// All present conditions must hold (AND); within a list any value may match (OR). Ids, authors,
// `#e` and `#p` hold exact 64-character lower-case hex: NIP-01 dropped prefix matching.

/// A NIP-01 filter: the conditions an event must meet to be sent on a subscription.
public struct Filter: Hashable, Sendable {
    /// Event ids (64 lower-case hex) the event's id must be one of.
    public var ids: Set<String>?
    /// Public keys (64 lower-case hex) the event's author must be one of.
    public var authors: Set<String>?
    /// Kinds the event's kind must be one of.
    public var kinds: Set<Kind>?
    /// Single-letter tag conditions: for each letter, the first value of some tag with that name
    /// must be in the set.
    public var tags: [String: Set<String>]
    /// Inclusive lower bound on `created_at`.
    public var since: UInt64?
    /// Inclusive upper bound on `created_at`.
    public var until: UInt64?
    /// How many of the newest stored events the initial query returns; ignored for live events.
    public var limit: Int?

    /// A filter with the given conditions; `nil` means "no condition".
    public init(
        ids: Set<String>? = nil,
        authors: Set<String>? = nil,
        kinds: Set<Kind>? = nil,
        tags: [String: Set<String>] = [:],
        since: UInt64? = nil,
        until: UInt64? = nil,
        limit: Int? = nil
    ) {
        self.ids = ids
        self.authors = authors
        self.kinds = kinds
        self.tags = tags
        self.since = since
        self.until = until
        self.limit = limit
    }
}
