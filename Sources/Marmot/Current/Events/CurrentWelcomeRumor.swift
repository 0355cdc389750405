import ErrorCodes
import HexEncoding
import MLS
import Nostr

// transports/nostr.md, "Welcome delivery" (current profile): an unsigned kind-444 rumor inside a
// NIP-59 seal and gift wrap addressed to the invitee; no `encoding` tag.
//   content = base64(TLS MLSMessage{version, wire_format = mls_welcome (3), Welcome})
//   ["e", <lower-case hex id of the consumed kind-30443 event>]   exactly one tag, one value
//   ["relays", url, …]                                          exactly one tag, >= 1 URLs of the relay URL profile, no repeats
/// Building and parsing current-profile Welcome rumors.
package enum CurrentWelcomeRumor {
    /// The rumor carrying `welcome` to the author of `keyPackageEvent`; `relays` in the routing
    /// component's order.
    package static func make(
        welcome: Welcome, inviter: PublicKey, createdAt: UInt64, keyPackageEvent: EventID, relays: [String]
    ) throws(MarmotError) -> UnsignedEvent {
        let bytes = try tlsEncoded(MLSMessage(body: .welcome(welcome)))
        return UnsignedEvent(
            pubkey: inviter, createdAt: createdAt, kind: .welcome, tags: [["e", keyPackageEvent.hex], ["relays"] + relays],
            content: Base64Content.encode(bytes))
    }

    /// What a valid current-profile Welcome rumor carries.
    package struct Parsed: Hashable, Sendable {
        package let welcome: Welcome
        package let keyPackageEvent: EventID
        package let relays: [String]
    }

    /// Checks kind, the `e` and `relays` rows of the cardinality table, and the content.
    /// - Throws: `.invalidWelcome`, `.invalidBase64`.
    package static func parse(_ rumor: UnsignedEvent) throws(MarmotError) -> Parsed {
        guard rumor.kind == .welcome else { throw MarmotError(.invalidWelcome, "kind \(rumor.kind) is not 444") }
        let e = rumor.tags.filter { $0.first == "e" }
        guard e.count == 1, e[0].count == 2, e[0][1].count == 64, CurrentKeyPackageEvent.TagReader.isLowerHex(e[0][1]),
            let eventID = try? EventID(hex: e[0][1])
        else { throw MarmotError(.invalidWelcome, "e must be exactly one tag with one lower-case hex event id") }
        let relayTags = rumor.tags.filter { $0.first == "relays" }
        guard relayTags.count == 1, relayTags[0].count >= 2 else {
            throw MarmotError(.invalidWelcome, "relays must be exactly one tag with at least one URL")
        }
        let relays = Array(relayTags[0].dropFirst())
        for relay in relays {
            if let problem = RelayURL.profileProblem(Array(relay.utf8)) { throw MarmotError(.invalidWelcome, "relay \(problem)") }
        }
        guard Set(relays).count == relays.count else { throw MarmotError(.invalidWelcome, "relays repeats a URL") }
        return Parsed(welcome: try WelcomeRumor.decodeWelcome(rumor.content), keyPackageEvent: eventID, relays: relays)
    }
}
