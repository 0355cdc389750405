import Nostr

/// Everything the core remembers about channels, in whichever role it plays in each.
struct ChannelBook: Sendable, Codable {
    /// A fan-out group of a channel we subscribe to, and the chat relay that administers it.
    struct FanOut: Sendable, Codable {
        let channelID: String
        let relay: PublicKey
    }

    /// Channels we own or subscribe to, by channel id.
    var records: [String: ChannelRecord] = [:]
    /// Subscriber side: fan-out chat id → the channel and the relay that administers it.
    var fanOuts: [String: FanOut] = [:]
    /// Chat-relay side: the channels we serve, by channel id.
    var services: [String: RelayService] = [:]
    /// Chat-relay side: join requests for channels we have not joined yet, by channel id. A relay
    /// back from an outage reads its inbox newest first, so requests can come before the welcome.
    var earlyRequests: [String: [PublicKey]] = [:]

    /// Chat-relay side: the channel a fan-out of ours serves.
    func service(forFanOut chatID: String) -> RelayService? {
        services.values.first { $0.fanOutID == chatID }
    }

    /// Whether a chat is one of the hidden ones (fan-outs: subscribers see their channel instead).
    func isFanOut(_ chatID: String) -> Bool {
        fanOuts[chatID] != nil || service(forFanOut: chatID) != nil
    }
}

/// One channel we own or subscribe to.
struct ChannelRecord: Sendable, Codable {
    let channelID: String
    var name: String
    var description: String
    var welcomeMessage: String
    let role: ChannelState.Role
    var owners: [PublicKey]
    /// In link order.
    var relays: [PublicKey]
    var relayStates: [PublicKey: ChannelRelayState] = [:]
    var messages: [ChatMessage] = []
    /// Inner event ids already shown (subscribers get each broadcast once per relay).
    var seenBroadcasts: Set<String> = []
    var joinFailed = false
    /// Why forwarded broadcasts were refused, the newest `retainedRejections` (a relay that
    /// forwards ever new forgeries must not grow the record without end); read through `noteRejected`.
    var rejectedBroadcasts: [String] = []
    var deleted = false
    /// Subscribers: we left; the record stays (hidden from the state) so that a fan-out welcome
    /// still on its way is known for what it is and left again.
    var left = false
    /// The deadline for relays to become active (owner) or admit us (subscriber).
    var timer: TimerToken?
    /// Owners: the deadline of a relay test.
    var testTimer: TimerToken?

    /// How many refusal reasons a channel keeps (the newest): enough for every refusal a user
    /// could read through, few enough that a hostile relay's forgeries cost a bounded record.
    static let retainedRejections = 256

    /// Records why a forwarded broadcast was refused, forgetting the oldest reason past the cap.
    mutating func noteRejected(_ reason: String) {
        rejectedBroadcasts.append(reason)
        if rejectedBroadcasts.count > Self.retainedRejections {
            rejectedBroadcasts.removeFirst(rejectedBroadcasts.count - Self.retainedRejections)
        }
    }

    mutating func setStatus(_ status: ChannelRelayStatus, of relay: PublicKey, failure: String? = nil) {
        relayStates[relay, default: ChannelRelayState(pubkey: relay, status: .new)].status = status
        relayStates[relay]?.failure = failure
    }

    var state: ChannelState {
        let link: ChannelLink? =
            role == .owner && relays.contains { relayStates[$0]?.status == .active }
            ? ChannelLink(channelID: channelID, name: name, owners: owners, relays: relays) : nil
        var state = ChannelState(
            channelID: channelID, name: name, description: description, welcomeMessage: welcomeMessage, role: role,
            relays: relays.map { relayStates[$0] ?? ChannelRelayState(pubkey: $0, status: .new) }, link: link,
            messages: messages, joinFailed: joinFailed, rejectedBroadcasts: rejectedBroadcasts, deleted: deleted)
        state.owners = owners
        return state
    }
}

/// A channel a chat relay serves: its fan-out group and the subscribers waiting to be admitted.
struct RelayService: Sendable, Codable {
    let channelID: String
    var fanOutID: String?
    /// Subscribers who asked to join, in arrival order, not yet in a commit.
    var waiting: [PublicKey] = []
    /// Subscribers who asked to leave, not yet removed by a commit.
    var leaving: [PublicKey] = []
    /// An owner deleted the channel: no more joins, nothing more forwarded.
    var closed = false
    /// The subscriber count last reported to the owners.
    var reportedCount: Int?
}

/// A channel being created: its relays' key packages are being fetched.
struct ChannelDraft: Sendable, Codable {
    var relays: [PublicKey]
    /// Owners beside the creator: admins of the channel group, named in the link.
    var coOwners: [PublicKey]
    var name: String
    var description: String
    var welcomeMessage: String
}
