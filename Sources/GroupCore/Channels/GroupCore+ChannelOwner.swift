import EngineInterface
import Nostr

extension GroupCore {
    /// How long relays have to become active (owner) or admit us (subscriber) before they count as failed.
    static let channelRelayTimeoutMilliseconds: UInt64 = 10_000

    /// Channel creation, step one: the chat relays' key packages, like any invitees'.
    func startChannel(_ draft: ChannelDraft) {
        let relays = Self.distinct(draft.relays).filter { $0 != publicKey }
        guard !relays.isEmpty else {
            fail(CoreError(.invalidAction, "a channel needs at least one chat relay"), chatID: nil)
            return
        }
        var draft = draft
        draft.relays = relays
        draft.coOwners = Self.distinct(draft.coOwners).filter { $0 != publicKey && !relays.contains($0) }
        fetchKeyPackages(of: relays + draft.coOwners, for: .channel(draft))
    }

    /// Step two: the channel group of us and every relay whose key package could be used; the others
    /// are reported failed with their key-package reason. No usable relay at all is an error.
    func createChannel(_ draft: ChannelDraft, found: [(PublicKey, Event)], failed: [FailedPeer]) async {
        let coOwners = found.map(\.0).filter(draft.coOwners.contains)
        guard found.contains(where: { draft.relays.contains($0.0) }) else {
            fail(CoreError(.channelRelaysFailed, "no chat relay could be invited (\(failed.count) failed)"), chatID: nil)
            record(failed, chatID: nil)
            return
        }
        let profile = ChannelProfile(channelID: "", description: draft.description, welcomeMessage: draft.welcomeMessage)
        let request = GroupCreation(
            creator: publicKey, keyPackages: found.map(\.1), name: draft.name, description: profile.serialized(),
            relays: configuration.groupRelays, admins: [publicKey] + coOwners)
        do {
            let created = try await engine.createGroup(request)
            await adopt(created.group)
            let channelID = created.group.nostrGroupID
            var channel = ChannelRecord(
                channelID: channelID, name: draft.name, description: draft.description, welcomeMessage: draft.welcomeMessage,
                role: .owner, owners: [publicKey] + coOwners, relays: draft.relays)
            for relay in draft.relays { channel.setStatus(.new, of: relay) }
            for peer in failed where draft.relays.contains(peer.pubkey) {
                channel.setStatus(.failed, of: peer.pubkey, failure: peer.reason.rawValue)
            }
            for (relay, _) in found where draft.relays.contains(relay) { channel.setStatus(.invited, of: relay) }
            channel.timer = startTimer(.channelRelays(channelID: channelID), milliseconds: Self.channelRelayTimeoutMilliseconds)
            channels.records[channelID] = channel
            record(failed, chatID: channelID)
            changed("channel \(channelID.prefix(8)) created")
            note("created channel \(channelID.prefix(8)) with \(found.count - coOwners.count) relay(s) invited")
            sendWelcomes(zip(created.welcomeRumors, found.map(\.0)).map { WelcomeRumor(rumor: $0, invitee: $1) })
        } catch {
            fail(error, during: "creating the channel", chatID: nil)
        }
    }

    /// Welcomed as an admin into a group whose description is a channel profile: we are a co-owner.
    /// The relays are the members who are not owners; their reports will tell us how far they got.
    func coOwnerJoinedChannel(_ snapshot: GroupSnapshot) -> Bool {
        guard let profile = ChannelProfile(parsing: snapshot.description), profile.channelID.isEmpty,
            snapshot.admins.contains(publicKey), let chat = chats[snapshot.nostrGroupID]
        else { return false }
        var channel = ChannelRecord(
            channelID: chat.chatID, name: snapshot.name, description: profile.description, welcomeMessage: profile.welcomeMessage,
            role: .owner, owners: snapshot.admins, relays: chat.members.filter { !snapshot.admins.contains($0) })
        for relay in channel.relays { channel.setStatus(.invited, of: relay) }
        channels.records[chat.chatID] = channel
        changed("channel \(chat.chatID.prefix(8)) co-owned")
        note("co-owner of channel \(chat.chatID.prefix(8)) with \(channel.relays.count) relay(s)")
        return true
    }

    /// Another owner's broadcast, seen in the channel group: shown as its text (checked like a
    /// subscriber would: an owner signed it and the MLS sender is that owner) and notified with the
    /// channel's name.
    func ownerReceived(_ received: ReceivedMessage, in channelID: String) {
        guard let channel = channels.records[channelID], let inner = try? Event(json: received.rumor.content),
            inner.pubkey == received.sender, channel.owners.contains(inner.pubkey), var chat = chats[channelID]
        else {
            note("ignored a broadcast in \(channelID.prefix(8)) not signed by its sending owner")
            return
        }
        let message = ChatMessage(
            id: inner.id.hex, senderPubkey: inner.pubkey, senderName: displayName(of: inner.pubkey), content: inner.content,
            timestamp: inner.createdAt, isMine: inner.pubkey == publicKey, delivery: inner.pubkey == publicKey ? .sent : .received)
        guard chat.insert(message) else { return }
        chats[channelID] = chat
        changed("broadcast \(inner.id.hex.prefix(8)) in \(channelID.prefix(8))")
        if let intent = NotificationRules.intent(
            for: message, chatID: channelID, context: .channel(name: channel.name), muted: ui.notifications.muted.contains(channelID),
            badge: unreadBadge())
        {
            ui.notifications.intents.append(intent)
            changed("notify \(inner.id.hex.prefix(8))")
        }
    }

    /// A relay told us how far it got (accepted our welcome; active with n subscribers).
    func relayReported(_ rumor: UnsignedEvent, from relay: PublicKey, channelID: String) {
        guard var channel = channels.records[channelID], channel.role == .owner, channel.relays.contains(relay),
            let object = (try? JSONValue(parsing: rumor.content))?.object, let status = object["status"]?.string
        else { return }
        switch status {
        case "accepted" where channel.relayStates[relay]?.status != .active:
            channel.setStatus(.accepted, of: relay)
        case "closed" where channel.deleted:
            channel.setStatus(.closed, of: relay)
        case "active" where !channel.deleted:
            channel.setStatus(.active, of: relay)
            if let count = object["subscribers"]?.uint64 { channel.relayStates[relay]?.subscribers = Int(count) }
        default:
            return
        }
        if channel.relayStates[relay]?.test == .pending { channel.relayStates[relay]?.test = .passed }
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) relay \(relay.hex.prefix(8)) \(status)")
    }

    /// The relay test button: every relay of the channel is pinged (as `retryChannel` pings failed
    /// ones), and each passes when it answers with where it stands before the deadline. A test
    /// changes no relay's status: a relay that does not answer has failed the test, not the channel.
    func testChannelRelays(_ channelID: String) {
        guard var channel = channels.records[channelID], channel.role == .owner else {
            fail(CoreError(.unknownChat, "we own no channel \(channelID)"), chatID: channelID)
            return
        }
        guard !channel.deleted else {
            fail(CoreError(.chatDeleted, "channel \(channel.name) was deleted"), chatID: channelID)
            return
        }
        for relay in channel.relays {
            channel.relayStates[relay, default: ChannelRelayState(pubkey: relay, status: .new)].test = .pending
            sendControl(
                UnsignedEvent(pubkey: publicKey, createdAt: now, kind: .channelStatusPing, tags: [["h", channelID]], content: ""), to: relay
            )
        }
        if let timer = channel.testTimer { timers.running[timer] = nil }
        channel.testTimer = startTimer(.channelRelayTest(channelID: channelID), milliseconds: Self.channelRelayTimeoutMilliseconds)
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) relay test")
    }

    /// A relay test's deadline: the relays still pending did not answer.
    func channelRelayTestDue(_ channelID: String) {
        guard var channel = channels.records[channelID], channel.role == .owner else { return }
        channel.testTimer = nil
        for relay in channel.relays where channel.relayStates[relay]?.test == .pending { channel.relayStates[relay]?.test = .failed }
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) relay test done")
    }

    /// The owner's deadline: relays not active by now failed; none active at all is an error the
    /// owner can retry (`retryChannel`).
    func channelRelaysDue(_ channelID: String) {
        guard var channel = channels.records[channelID], channel.role == .owner else { return }
        channel.timer = nil
        for relay in channel.relays where channel.relayStates[relay]?.status != .active && channel.relayStates[relay]?.status != .failed {
            channel.setStatus(.failed, of: relay, failure: "timeout")
        }
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) \(channel.state.connectedSummary)")
        note("channel \(channelID.prefix(8)): \(channel.state.connectedSummary)")
        if channel.state.connectedCount == 0 {
            fail(
                CoreError(.channelRelaysFailed, "no chat relay became active in \(Self.channelRelayTimeoutMilliseconds) ms"),
                chatID: channelID)
        }
    }

    /// Asks every failed relay again where it stands (it may have come back and joined meanwhile),
    /// with a fresh deadline.
    func retryChannel(_ channelID: String) {
        guard var channel = channels.records[channelID], channel.role == .owner else {
            fail(CoreError(.unknownChat, "we own no channel \(channelID)"), chatID: channelID)
            return
        }
        let failed = channel.relays.filter { channel.relayStates[$0]?.status == .failed }
        guard !failed.isEmpty else { return }
        for relay in failed {
            channel.setStatus(.invited, of: relay)
            sendControl(
                UnsignedEvent(pubkey: publicKey, createdAt: now, kind: .channelStatusPing, tags: [["h", channelID]], content: ""), to: relay
            )
        }
        if let timer = channel.timer { timers.running[timer] = nil }
        channel.timer = startTimer(.channelRelays(channelID: channelID), milliseconds: Self.channelRelayTimeoutMilliseconds)
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) retry")
    }

    /// An event of `kind` signed with our Nostr key and tagged with the channel (so subscribers can
    /// check an owner wrote it whatever relay forwards it), carried as an application message of
    /// `outerKind` in the channel group, ready to publish.
    func ownerSigned(_ kind: Kind, content: String, as outerKind: Kind, in chat: ChatRecord) async throws -> (inner: Event, event: Event) {
        let inner = try UnsignedEvent(pubkey: publicKey, createdAt: now, kind: kind, tags: [["h", chat.chatID]], content: content)
            .signed(with: configuration.keypair, using: &random)
        let event = try await engine.createMessage(
            in: chat.mlsGroupID, sender: publicKey, kind: outerKind, content: inner.json(), tags: [["h", chat.chatID]])
        return (inner, event)
    }

    /// Owners post as the channel: the text goes into a kind-9 event signed with our Nostr key (so
    /// subscribers can check who wrote it whatever relay forwards it), carried to the relays as a
    /// kind-4462 application message of the channel group. Subscribers are refused locally.
    func broadcast(_ text: String, in channelID: String) async {
        guard let channel = channels.records[channelID] else {
            fail(CoreError(.unknownChat, "no channel \(channelID)"), chatID: channelID)
            return
        }
        guard channel.role == .owner, let chat = chats[channelID], !chat.isRemoved else {
            fail(CoreError(.subscriberCannotPost, "you are subscriber"), chatID: channelID)
            return
        }
        guard !channel.deleted else {
            fail(CoreError(.chatDeleted, "channel \(channel.name) was deleted"), chatID: channelID)
            return
        }
        do {
            let (inner, event) = try await ownerSigned(.chatMessage, content: text, as: .channelBroadcast, in: chat)
            let message = ChatMessage(
                id: inner.id.hex, senderPubkey: publicKey, senderName: configuration.profileName, content: text,
                timestamp: inner.createdAt, isMine: true, delivery: .pending)
            _ = chats[channelID]?.insert(message)
            changed("broadcast \(inner.id.hex.prefix(8))")
            traffic.publishes[event.id.hex] = .message(chatID: channelID, messageID: inner.id.hex, outstanding: Set(chat.relays))
            traffic.outbox.track(event)
            publishSigned(event, to: chat.relays)
        } catch let error as EngineError {
            fail(error, during: "broadcasting", chatID: channelID)
        } catch {
            fail(CoreError(.engine, "signing a broadcast: \(error)"), chatID: channelID)
        }
    }
}
