import Nostr

/// What the discovery relays told us about other members: profile names and relay lists
/// (kind 0, kind 10050 inbox relays, kind 10051 key-package relays), newest event per author and kind.
struct Directory: Sendable, Codable {
    private struct Entry: Sendable, Codable {
        var createdAt: UInt64
        var value: [String]
    }
    private var names: [PublicKey: Entry] = [:]
    private var inboxes: [PublicKey: Entry] = [:]
    private var keyPackageRelays: [PublicKey: Entry] = [:]
    /// Profile pictures (kind 0 `picture`); nil while no profile named one, so that a directory
    /// without pictures encodes, and a state written before they were kept decodes, as before.
    private var pictures: [PublicKey: Entry]? = nil

    func name(of key: PublicKey) -> String? { names[key]?.value.first }
    func picture(of key: PublicKey) -> String? { pictures?[key]?.value.first }
    func inboxRelays(of key: PublicKey) -> [String]? { inboxes[key]?.value }
    func keyPackageRelays(of key: PublicKey) -> [String]? { keyPackageRelays[key]?.value }

    /// Learns from a verified event; returns whether anything changed.
    mutating func learn(_ event: Event) -> Bool {
        switch event.kind {
        case .metadata:
            guard let object = try? JSONValue(parsing: event.content).object, let name = object["name"]?.string else {
                return false
            }
            guard Self.keep(event, [name], in: &names) else { return false }
            // The picture follows the profile it came in: a newer profile without one clears it.
            let picture = object["picture"]?.string
            if picture != nil || pictures?[event.pubkey] != nil {
                var known = pictures ?? [:]
                known[event.pubkey] = picture.map { Entry(createdAt: event.createdAt, value: [$0]) }
                pictures = known
            }
            return true
        case .inboxRelays:
            return Self.keep(event, Self.relayTags(event), in: &inboxes)
        case .keyPackageRelays:
            return Self.keep(event, Self.relayTags(event), in: &keyPackageRelays)
        default:
            return false
        }
    }

    private static func relayTags(_ event: Event) -> [String] {
        event.tags.filter { $0.count >= 2 && $0[0] == "relay" }.map { $0[1] }
    }

    /// Replaceable-event rule: a newer event replaces an older one (ties keep the first seen).
    private static func keep(_ event: Event, _ value: [String], in table: inout [PublicKey: Entry]) -> Bool {
        if let current = table[event.pubkey], current.createdAt >= event.createdAt { return false }
        table[event.pubkey] = Entry(createdAt: event.createdAt, value: value)
        return true
    }
}
