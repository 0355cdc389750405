// Channels: a group whose owners broadcast and whose subscribers only read, carried by chat relays
// (members that run GroupCore in relay role and forward). The channel group holds the owners and
// the chat relays; each chat relay administers its own fan-out group of subscribers, so that
// subscribers never share a group with one another and a relay can only forward what owners signed.
import Nostr

/// A channel as its owner or one of its subscribers sees it (chat relays keep no UI state).
package struct ChannelState: Hashable, Sendable, Codable {
    package enum Role: String, Hashable, Sendable, Codable {
        case owner, subscriber
    }

    /// The chat id (Marmot group id, hex) of the channel group of owners and relays.
    package var channelID: String
    package var name: String
    package var description: String
    package var welcomeMessage: String
    package var role: Role
    /// One entry per chat relay, in the order of the link.
    package var relays: [ChannelRelayState]
    /// Owners: the link to hand out, once at least one relay is active.
    package var link: ChannelLink?
    /// Subscribers: broadcasts verified and deduplicated by inner event id (created_at, id order);
    /// owners: what they broadcast.
    package var messages: [ChatMessage]
    /// Subscribers: every relay failed ("failed to join channel"); `retryJoinChannel` tries again.
    package var joinFailed: Bool
    /// Subscribers: why forwarded broadcasts were refused (altered, forged, not from the relay…),
    /// in arrival order; each is also in `AppState.rejections` with its wrapper id.
    package var rejectedBroadcasts: [String] = []
    /// An owner deleted the channel: owners and subscribers keep what was said, nobody posts, relays
    /// stop serving it.
    package var deleted = false
    /// The channel's owners as this member knows them (from the link, kept current as owners
    /// leave): subscribers are shown who owns the channel.
    package var owners: [PublicKey] = []

    /// Relays that are serving us: `active` for owners, `joined` for subscribers.
    package var connectedCount: Int { relays.filter { $0.status == .active || $0.status == .joined }.count }

    /// "N/M relays connected", and ", K failed" when some did, as the product shows it.
    package var connectedSummary: String {
        let failed = relays.filter { $0.status == .failed }.count
        return "\(connectedCount)/\(relays.count) relays connected" + (failed > 0 ? ", \(failed) failed" : "")
    }
}

/// One chat relay of a channel, and how far it got.
package struct ChannelRelayState: Hashable, Sendable, Codable {
    package var pubkey: PublicKey
    package var status: ChannelRelayStatus
    /// Owners: the subscriber count the relay last reported.
    package var subscribers: Int?
    /// Why the relay failed, when it did.
    package var failure: String?
    /// Owners: the outcome of the last relay test (`testChannelRelays`), nil before any.
    package var test: ChannelRelayTest?
}

/// A relay test, like the relay test button of the channel settings: the owner pings the relay,
/// which passes when it answers with where it stands before the deadline.
package enum ChannelRelayTest: String, Hashable, Sendable, Codable {
    case pending, passed, failed
}

/// Owners see new → invited → accepted → active (or failed), then closed once the relay confirms
/// a deletion; subscribers requested → joined (or failed).
package enum ChannelRelayStatus: String, Hashable, Sendable, Codable {
    case new, invited, accepted, active
    case requested, joined
    case failed
    case closed
}

/// What a subscriber needs to join: the channel's name, its owners (whose signatures subscribers
/// check end to end) and its chat relays.
package struct ChannelLink: Hashable, Sendable, Codable {
    package var channelID: String
    package var name: String
    package var owners: [PublicKey]
    package var relays: [PublicKey]

    package init(channelID: String, name: String, owners: [PublicKey], relays: [PublicKey]) {
        self.channelID = channelID
        self.name = name
        self.owners = owners
        self.relays = relays
    }
}

/// How a chat relay treats broadcasts: honestly, or (to test subscribers) altering or forging them.
package enum ChatRelayConduct: String, Hashable, Sendable, Codable, CaseIterable {
    /// Forwards each owner-signed broadcast as it is.
    case honest
    /// Changes the text of the inner event and forwards it with the owner's now-stale signature.
    case alters
    /// Replaces the inner event with one of its own, signed by the relay's key.
    case forges
}
