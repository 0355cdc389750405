import EngineInterface
import Nostr

extension GroupCore {
    /// Carries out the channel actions (see IO/CoreIO.swift).
    func performChannelAction(_ action: AppAction) async {
        switch action {
        case .createChannel(let relays, let name, let description, let welcomeMessage, let coOwners):
            startChannel(
                ChannelDraft(
                    relays: relays, coOwners: coOwners, name: name, description: description, welcomeMessage: welcomeMessage))
        case .retryChannel(let channelID): retryChannel(channelID)
        case .testChannelRelays(let channelID): testChannelRelays(channelID)
        case .joinChannel(let link): joinChannel(link)
        case .retryJoinChannel(let channelID): retryJoinChannel(channelID)
        case .broadcast(let channelID, let text): await broadcast(text, in: channelID)
        case .leaveChannel(let channelID) where channels.records[channelID]?.role == .owner: await ownerLeavesChannel(channelID)
        case .leaveChannel(let channelID): leaveChannel(channelID)
        case .deleteChannel(let channelID): await deleteChannel(channelID)
        default: break
        }
    }

    /// Sends a control rumor gift-wrapped to `recipient`'s inbox relays (ours when it listed none).
    func sendControl(_ rumor: UnsignedEvent, to recipient: PublicKey) {
        do {
            let wrap = try GiftWrap.wrap(rumor: rumor, sender: configuration.keypair, recipient: recipient, now: now, using: &random)
            publishSigned(wrap, to: directory.inboxRelays(of: recipient) ?? configuration.inboxRelays)
            note("sent kind \(rumor.kind) to \(recipient.hex.prefix(8))")
        } catch {
            fail(CoreError(.engine, "gift-wrapping kind \(rumor.kind): \(error.reason)"), chatID: nil)
        }
    }

    /// A gift-wrapped rumor that is not a welcome: a channel control message, or false.
    func receiveChannelControl(_ opened: GiftWrap.Unwrapped) -> Bool {
        guard let channelID = opened.rumor.tags.first(where: { $0.first == "h" && $0.count > 1 })?[1] else { return false }
        switch opened.rumor.kind {
        case .channelJoinRequest where chatRelayConduct != nil:
            relayReceivedJoinRequest(from: opened.sender, channelID: channelID)
        case .channelStatusPing where chatRelayConduct != nil:
            relayPinged(by: opened.sender, channelID: channelID)
        case .channelLeave where chatRelayConduct != nil:
            relayReceivedLeave(from: opened.sender, channelID: channelID)
        case .channelRelayStatus:
            relayReported(opened.rumor, from: opened.sender, channelID: channelID)
        default:
            return false
        }
        return true
    }

    /// A welcome was accepted: chat relays start serving the channel; subscribers record a fan-out.
    /// True when the joiner must not self-update (fan-out members, see `subscriberJoinedFanOut`).
    func channelWelcomeAccepted(_ snapshot: GroupSnapshot, from sender: PublicKey) async -> Bool {
        if chatRelayConduct != nil {
            await relayJoinedChannel(snapshot)
            return false
        }
        if coOwnerJoinedChannel(snapshot) { return false }
        return subscriberJoinedFanOut(snapshot, from: sender)
    }

    /// An application message in a channel group or a fan-out; true when it was one (and handled).
    func receiveChannelMessage(_ received: ReceivedMessage, in chatID: String) async -> Bool {
        if chatRelayConduct != nil {
            await relayReceived(received, in: chatID)
            return true
        }
        if channels.fanOuts[chatID] != nil {
            subscriberReceived(received, in: chatID)
            return true
        }
        if channels.records[chatID]?.role == .owner, received.rumor.kind == .channelBroadcast {
            ownerReceived(received, in: chatID)
            return true
        }
        if channels.records[chatID]?.role == .owner, received.rumor.kind == .channelClosed {
            ownerReceivedClosing(received, in: chatID)
            return true
        }
        if channels.records[chatID]?.role == .owner, received.rumor.kind == .channelOwners {
            ownerReceivedOwners(received, in: chatID)
            return true
        }
        return false
    }

    /// The channels as the UI shows them (owners' messages are those of their channel chat).
    func channelStates() -> [ChannelState] {
        channels.records.values.filter { !$0.left }.map { channel in
            var state = channel.state
            if channel.role == .owner { state.messages = chats[channel.channelID]?.messages ?? [] }
            return state
        }.sorted { ($0.name, $0.channelID) < ($1.name, $1.channelID) }
    }
}
