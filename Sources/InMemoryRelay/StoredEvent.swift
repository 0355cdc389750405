import HexEncoding
import Nostr

/// An accepted event with the derived values the relay needs on every match, computed once.
struct StoredEvent: Sendable {
    let event: Event
    /// Compact wire JSON, reused for every EVENT frame that carries it.
    let json: String
    let idHex: String
    let pubkeyHex: String
    /// NIP-40 `expiration` tag value, when present and numeric.
    let expiration: UInt64?
    /// `(letter, first value)` of every single-letter tag: the only tag values NIP-01 indexes.
    let indexedTags: [TagKey]

    init(_ event: Event) {
        self.event = event
        idHex = event.id.hex
        pubkeyHex = event.pubkey.hex
        json = Self.wireJSON(event, idHex: idHex, pubkeyHex: pubkeyHex)
        expiration = event.firstTagValue("expiration").flatMap { UInt64($0) }
        var keys: [TagKey] = []
        for tag in event.tags where tag.count >= 2 && tag[0].utf8.count == 1 {
            keys.append(TagKey(letter: tag[0], value: tag[1]))
        }
        indexedTags = keys
    }

    /// The same text as `event.json()` (keys in sorted order, NIP-01 string escaping via
    /// `JSONValue`), written directly because it is built for every accepted event: building the
    /// member dictionary and sorting it took most of the relay's per-event time.
    static func wireJSON(_ event: Event, idHex: String, pubkeyHex: String) -> String {
        var out = "{\"content\":"
        out += JSONValue.string(event.content).serialized()
        out += ",\"created_at\":\(event.createdAt),\"id\":\"\(idHex)\",\"kind\":\(event.kind.rawValue),\"pubkey\":\"\(pubkeyHex)\""
        out += ",\"sig\":\"\(event.sig.hexString)\",\"tags\":"
        out += JSONValue.array(event.tags.map { .array($0.map(JSONValue.string)) }).serialized()
        out += "}"
        return out
    }

    /// NIP-40: an event is expired once the clock is past its `expiration` timestamp.
    func isExpired(at now: UInt64) -> Bool {
        guard let expiration else { return false }
        return now > expiration
    }

    /// NIP-70: a tag that is exactly `["-"]`.
    var isProtected: Bool { event.tags.contains { $0 == ["-"] } }

    func matches(_ filter: Filter) -> Bool {
        filter.matches(idHex: idHex, pubkeyHex: pubkeyHex, kind: event.kind, createdAt: event.createdAt, tags: event.tags)
    }

    /// NIP-01 query order: newest first; on equal `created_at`, the lower id first.
    func precedesInResults(_ other: StoredEvent) -> Bool {
        if event.createdAt != other.event.createdAt { return event.createdAt > other.event.createdAt }
        return idHex < other.idHex
    }
}

/// A single-letter tag name with its first value.
struct TagKey: Hashable, Sendable {
    let letter: String
    let value: String
}

/// The slot that a replaceable or addressable event occupies: (kind, pubkey) or (kind, pubkey, d).
struct Address: Hashable, Sendable {
    let kind: Kind
    let pubkeyHex: String
    let identifier: String

    /// The address of `stored`, or nil for regular and ephemeral kinds. An addressable event
    /// without a `d` tag gets `d = ""`: NIP-01 defines the address by the first `d` value and says
    /// nothing about rejecting its absence (rust-nostr's LocalRelay rejects it instead).
    init?(of stored: StoredEvent) {
        let kind = stored.event.kind
        if kind.isReplaceable {
            identifier = ""
        } else if kind.isAddressable {
            identifier = stored.event.firstTagValue("d") ?? ""
        } else {
            return nil
        }
        self.kind = kind
        pubkeyHex = stored.pubkeyHex
    }

    init(kind: Kind, pubkeyHex: String, identifier: String) {
        self.kind = kind
        self.pubkeyHex = pubkeyHex
        self.identifier = identifier
    }

    /// Parses a NIP-01 `a` tag value `<kind>:<pubkey>:<d>` (the `d` part may itself contain `:`).
    init?(aTagValue: String) {
        let parts = aTagValue.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let raw = UInt16(parts[0]) else { return nil }
        let kind = Kind(rawValue: raw)
        guard kind.isReplaceable || kind.isAddressable else { return nil }
        self.init(kind: kind, pubkeyHex: String(parts[1]), identifier: kind.isAddressable ? String(parts[2]) : "")
    }
}
