import EngineInterface
import Nostr

extension GroupCore {
    /// Joining by link: one join request to each relay, each with its own progress, one deadline.
    func joinChannel(_ link: ChannelLink) {
        guard !link.relays.isEmpty, !link.owners.isEmpty else {
            fail(CoreError(.invalidAction, "a channel link names owners and at least one relay"), chatID: link.channelID)
            return
        }
        guard channels.records[link.channelID].map({ $0.left }) ?? true else {
            fail(CoreError(.invalidAction, "already in channel \(link.channelID.prefix(8))"), chatID: link.channelID)
            return
        }
        channels.records[link.channelID] = ChannelRecord(
            channelID: link.channelID, name: link.name, description: "", welcomeMessage: "", role: .subscriber,
            owners: link.owners, relays: link.relays)
        requestJoin(link.channelID, from: link.relays)
    }

    /// Asks the failed relays again, with a fresh deadline ("failed to join channel" → retry).
    func retryJoinChannel(_ channelID: String) {
        guard let channel = channels.records[channelID], channel.role == .subscriber, !channel.left else {
            fail(CoreError(.unknownChat, "no channel \(channelID) to rejoin"), chatID: channelID)
            return
        }
        let failed = channel.relays.filter { channel.relayStates[$0]?.status == .failed }
        guard !failed.isEmpty else { return }
        channels.records[channelID]?.joinFailed = false
        requestJoin(channelID, from: failed)
    }

    private func requestJoin(_ channelID: String, from relays: [PublicKey]) {
        guard var channel = channels.records[channelID] else { return }
        let request = UnsignedEvent(pubkey: publicKey, createdAt: now, kind: .channelJoinRequest, tags: [["h", channelID]], content: "")
        for relay in relays {
            channel.setStatus(.requested, of: relay)
            sendControl(request, to: relay)
        }
        if let timer = channel.timer { timers.running[timer] = nil }
        channel.timer = startTimer(.channelJoin(channelID: channelID), milliseconds: Self.channelRelayTimeoutMilliseconds)
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) join requested from \(relays.count) relay(s)")
    }

    /// The subscriber's deadline: relays that have not admitted us failed; all failing is
    /// "failed to join channel". A relay admitting us later still counts (its welcome is accepted).
    func channelJoinDue(_ channelID: String) {
        guard var channel = channels.records[channelID], channel.role == .subscriber else { return }
        channel.timer = nil
        for relay in channel.relays where channel.relayStates[relay]?.status == .requested {
            channel.setStatus(.failed, of: relay, failure: "timeout")
        }
        if channel.state.connectedCount == 0 {
            channel.joinFailed = true
            fail(CoreError(.channelJoinFailed, "failed to join channel \(channel.name)"), chatID: channelID)
        }
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) \(channel.state.connectedSummary)")
    }

    /// A welcome we accepted is a relay's fan-out when its group data names one of our channels and
    /// the welcome came from one of that channel's relays: that relay now serves us. Fan-out members
    /// skip the post-join self-update: only the relay commits there, so that admitting subscribers
    /// never races a subscriber's commit (see docs/group-core.md). True when it was a fan-out.
    func subscriberJoinedFanOut(_ snapshot: GroupSnapshot, from relay: PublicKey) -> Bool {
        guard let profile = ChannelProfile(parsing: snapshot.description), !profile.channelID.isEmpty,
            var channel = channels.records[profile.channelID], channel.role == .subscriber, channel.relays.contains(relay),
            snapshot.admins.contains(relay)
        else { return false }
        channels.fanOuts[snapshot.nostrGroupID] = ChannelBook.FanOut(channelID: profile.channelID, relay: relay)
        if channel.left {
            leftChannelWelcomed(profile.channelID, by: relay)
            return true
        }
        channel.setStatus(.joined, of: relay)
        channel.joinFailed = false
        channel.description = profile.description
        channel.welcomeMessage = profile.welcomeMessage
        channels.records[profile.channelID] = channel
        changed("channel \(profile.channelID.prefix(8)) joined via \(relay.hex.prefix(8))")
        note("joined channel \(profile.channelID.prefix(8)) via relay \(relay.hex.prefix(8)): \(channel.state.connectedSummary)")
        return true
    }

    /// A broadcast forwarded by a relay into its fan-out: the relay must be the sender, the inner
    /// event must verify (id and signature), be signed by an owner named in the link and belong to
    /// this channel; then it is shown once, whichever relay brought it first.
    func subscriberReceived(_ received: ReceivedMessage, in fanOutID: String) {
        guard let fanOut = channels.fanOuts[fanOutID], case (let channelID, let relay) = (fanOut.channelID, fanOut.relay),
            var channel = channels.records[channelID], !channel.left
        else { return }
        if received.sender == relay, received.rumor.kind == .channelClosed {
            return subscriberReceivedClosing(received, channelID: channelID, relay: relay)
        }
        if received.sender == relay, received.rumor.kind == .channelOwners {
            return subscriberReceivedOwners(received, channelID: channelID, relay: relay)
        }
        guard received.sender == relay, received.rumor.kind == .channelBroadcast else {
            rejectBroadcast(
                received, in: channelID, reason: "channel.notFromRelay",
                detail: "kind \(received.rumor.kind) by \(received.sender.hex.prefix(8)), not the relay")
            return
        }
        let inner: Event
        do {
            inner = try Event(json: received.rumor.content)
        } catch {
            rejectBroadcast(
                received, in: channelID, reason: error.code.name, detail: "relay \(relay.hex.prefix(8)) forwarded: \(error.reason)")
            return
        }
        guard channel.owners.contains(inner.pubkey) else {
            rejectBroadcast(
                received, in: channelID, reason: "channel.notOwner", detail: "signed by \(inner.pubkey.hex.prefix(8)), not an owner")
            return
        }
        guard inner.kind == .chatMessage, inner.firstTagValue("h") == channelID else {
            rejectBroadcast(
                received, in: channelID, reason: "channel.wrongChannel",
                detail: "kind \(inner.kind) for \(inner.firstTagValue("h") ?? "no channel")")
            return
        }
        guard channel.seenBroadcasts.insert(inner.id.hex).inserted else {
            note("duplicate broadcast \(inner.id.hex.prefix(8)) via \(relay.hex.prefix(8))")
            return
        }
        let message = ChatMessage(
            id: inner.id.hex, senderPubkey: inner.pubkey, senderName: displayName(of: inner.pubkey), content: inner.content,
            timestamp: inner.createdAt, isMine: false, delivery: .received)
        let index = channel.messages.firstIndex { ($0.timestamp, $0.id) > (message.timestamp, message.id) } ?? channel.messages.endIndex
        channel.messages.insert(message, at: index)
        channels.records[channelID] = channel
        changed("broadcast \(inner.id.hex.prefix(8)) in \(channelID.prefix(8))")
        if let intent = NotificationRules.intent(
            for: message, chatID: channelID, context: .channel(name: channel.name), muted: ui.notifications.muted.contains(channelID),
            badge: unreadBadge())
        {
            ui.notifications.intents.append(intent)
            changed("notify \(inner.id.hex.prefix(8))")
        }
    }

    private func rejectBroadcast(_ received: ReceivedMessage, in channelID: String, reason: String, detail: String) {
        channels.records[channelID]?.noteRejected(reason)
        ui.rejections.append(Rejection(eventID: received.wrapperID.hex, kind: .groupEvent, reason: reason, detail: detail))
        note("rejected broadcast in wrapper \(received.wrapperID.hex.prefix(8)): \(reason)")
        changed("rejection \(reason)")
    }
}
