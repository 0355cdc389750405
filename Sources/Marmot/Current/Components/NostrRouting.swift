import HexEncoding
import TLSCodec

// marmot.transport.nostr.routing.v1 (0x8004), GroupContext, required for Nostr-routed groups.
//
// struct {
//     opaque url<1..512>;            // relay URL profile of transports/nostr.md
// } MarmotNostrRelayV1;
//
// struct {
//     opaque nostr_group_id[32];     // random; the kind-445 `h` tag
//     MarmotNostrRelayV1 relays<V>;  // non-empty, sorted by bytes, unique
// } MarmotNostrRoutingV1;
/// Where the group's kind-445 events go: the `h` value and the canonical relay list.
package struct NostrRouting: Hashable, Sendable {
    package static let id = AppComponentID.nostrRouting

    package private(set) var nostrGroupID: [UInt8]
    /// UTF-8 relay URLs, strictly ascending by bytes.
    package private(set) var relays: [String]

    /// - Throws: `.componentInvalid` (id not 32 bytes, no relay, a relay outside the URL profile,
    ///   relays not strictly ascending).
    package init(nostrGroupID: [UInt8], relays: [String]) throws(MarmotError) {
        guard nostrGroupID.count == 32 else {
            throw MarmotError(.componentInvalid, "\(Self.id): nostr_group_id has \(nostrGroupID.count) bytes, not 32")
        }
        guard !relays.isEmpty else { throw MarmotError(.componentInvalid, "\(Self.id): the relay list is empty") }
        for relay in relays {
            if let problem = RelayURL.profileProblem(Array(relay.utf8)) {
                throw MarmotError(.componentInvalid, "\(Self.id): relay \(problem)")
            }
        }
        for (previous, next) in zip(relays, relays.dropFirst()) where !Array(previous.utf8).lexicographicallyPrecedes(Array(next.utf8)) {
            throw MarmotError(.componentInvalid, "\(Self.id): relays are not strictly ascending (\(next) after \(previous))")
        }
        self.nostrGroupID = nostrGroupID
        self.relays = relays
    }

    /// - Throws: `.componentInvalid`.
    package init(bytes: [UInt8]) throws(MarmotError) {
        let (groupID, rawRelays) = try readComponent(bytes, as: Self.id) { reader in
            (
                Array(try reader.readBytes(32)),
                try reader.readVector { (inner: inout TLSReader) throws(TLSCodecError) in try inner.readOpaque() }
            )
        }
        var relays: [String] = []
        for raw in rawRelays { relays.append(try componentText(raw, field: "relay", of: Self.id)) }
        try self.init(nostrGroupID: groupID, relays: relays)
    }

    package func encoded() -> [UInt8] {
        var writer = TLSWriter()
        writer.writeBytes(nostrGroupID)
        writer.writeVector { inner in for relay in relays { inner.writeOpaque(Array(relay.utf8)) } }
        return writer.bytes
    }

    /// The kind-445 `h` tag value.
    package var hTag: String { nostrGroupID.hexString }
}
