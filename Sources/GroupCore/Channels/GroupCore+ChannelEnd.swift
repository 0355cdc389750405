// How a channel ends for one subscriber (it leaves) or for everyone (an owner deletes it).
//
// Leaving: the subscriber asks each of its relays (a gift-wrapped kind-4465 rumor, since it may not
// be in a fan-out yet) and stops showing the channel at once. Each relay drops it from the waiting
// list or removes it from its fan-out with its next commit. A fan-out welcome still on its way is
// recognised by the kept (hidden) record and answered with another leave.
//
// Deleting: the owner signs a kind-4464 event and sends it like a broadcast, as an application
// message of the channel group, so that subscribers can check an owner closed the channel whichever
// relay brings the news. Relays forward it into their fan-outs, stop serving (no joins, nothing
// forwarded) and report `closed` to the owners. Everyone keeps what was said; nobody posts again.
import EngineInterface
import Nostr

extension GroupCore {
    /// A subscriber leaves: every relay of the channel is asked to let it go.
    func leaveChannel(_ channelID: String) {
        guard var channel = channels.records[channelID], channel.role == .subscriber, !channel.left else {
            fail(CoreError(.unknownChat, "we subscribe to no channel \(channelID)"), chatID: channelID)
            return
        }
        let request = UnsignedEvent(pubkey: publicKey, createdAt: now, kind: .channelLeave, tags: [["h", channelID]], content: "")
        for relay in channel.relays { sendControl(request, to: relay) }
        if let timer = channel.timer { timers.running[timer] = nil }
        channel.timer = nil
        channel.left = true
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) left")
        note("left channel \(channelID.prefix(8)): asked \(channel.relays.count) relay(s) to remove us")
    }

    /// A fan-out welcome for a channel we left: we tell that relay again.
    func leftChannelWelcomed(_ channelID: String, by relay: PublicKey) {
        let request = UnsignedEvent(pubkey: publicKey, createdAt: now, kind: .channelLeave, tags: [["h", channelID]], content: "")
        sendControl(request, to: relay)
        note("welcomed into a fan-out of channel \(channelID.prefix(8)), which we left: asked \(relay.hex.prefix(8)) again")
    }

    /// An owner deletes the channel for everyone.
    func deleteChannel(_ channelID: String) async {
        guard let channel = channels.records[channelID], channel.role == .owner, let chat = chats[channelID], !chat.isRemoved else {
            fail(CoreError(.unknownChat, "we own no channel \(channelID)"), chatID: channelID)
            return
        }
        guard !channel.deleted else {
            fail(CoreError(.chatDeleted, "channel \(channel.name) is already deleted"), chatID: channelID)
            return
        }
        do {
            let (_, event) = try await ownerSigned(.channelClosed, content: "", as: .channelClosed, in: chat)
            channels.records[channelID]?.deleted = true
            if let timer = channel.timer { timers.running[timer] = nil }
            channels.records[channelID]?.timer = nil
            changed("channel \(channelID.prefix(8)) deleted")
            traffic.publishes[event.id.hex] = .control(chatID: channelID, outstanding: Set(chat.relays))
            traffic.outbox.track(event)
            publishSigned(event, to: chat.relays)
        } catch let error as EngineError {
            fail(error, during: "deleting the channel", chatID: channelID)
        } catch {
            fail(CoreError(.engine, "signing a channel deletion: \(error)"), chatID: channelID)
        }
    }

    /// Whether `content` is an owner-signed deletion of `channelID`; the owner it names, else nil.
    func closingOwner(_ content: String, channelID: String, owners: [PublicKey]) -> PublicKey? {
        guard let inner = try? Event(json: content), inner.kind == .channelClosed, inner.firstTagValue("h") == channelID,
            owners.contains(inner.pubkey)
        else { return nil }
        return inner.pubkey
    }

    /// Another owner deleted the channel (seen in the channel group).
    func ownerReceivedClosing(_ received: ReceivedMessage, in channelID: String) {
        guard let channel = channels.records[channelID], !channel.deleted,
            closingOwner(received.rumor.content, channelID: channelID, owners: channel.owners) == received.sender
        else { return }
        channels.records[channelID]?.deleted = true
        changed("channel \(channelID.prefix(8)) deleted by \(received.sender.hex.prefix(8))")
    }

    /// A relay's fan-out brought an owner's deletion: the channel is over for us.
    func subscriberReceivedClosing(_ received: ReceivedMessage, channelID: String, relay: PublicKey) {
        guard var channel = channels.records[channelID] else { return }
        guard closingOwner(received.rumor.content, channelID: channelID, owners: channel.owners) != nil else {
            channel.noteRejected("channel.notOwner")
            channels.records[channelID] = channel
            ui.rejections.append(
                Rejection(
                    eventID: received.wrapperID.hex, kind: .groupEvent, reason: "channel.notOwner",
                    detail: "a deletion relay \(relay.hex.prefix(8)) forwarded is not signed by an owner"))
            changed("rejection channel.notOwner")
            return
        }
        guard !channel.deleted else { return }
        channel.deleted = true
        if let timer = channel.timer { timers.running[timer] = nil }
        channel.timer = nil
        channels.records[channelID] = channel
        changed("channel \(channelID.prefix(8)) deleted")
    }

    /// Relay side: an owner deleted a channel we serve. Its subscribers are told (the signed
    /// deletion, forwarded into the fan-out), nobody else is admitted, and the owners hear `closed`.
    func relayReceivedClosing(_ received: ReceivedMessage, channelID: String) async {
        guard var service = channels.services[channelID], !service.closed, let channel = chats[channelID],
            closingOwner(received.rumor.content, channelID: channelID, owners: channel.admins) == received.sender
        else {
            note("ignored a deletion of \(channelID.prefix(8)) not signed by its sending owner")
            return
        }
        service.closed = true
        service.waiting = []
        service.leaving = []
        channels.services[channelID] = service
        if let fanOutID = service.fanOutID, let fanOut = chats[fanOutID] {
            do {
                let event = try await engine.createMessage(
                    in: fanOut.mlsGroupID, sender: publicKey, kind: .channelClosed, content: received.rumor.content,
                    tags: [["h", channelID]])
                publishSigned(event, to: fanOut.relays)
            } catch {
                fail(error, during: "forwarding a channel deletion", chatID: channelID)
            }
        }
        reportToOwners(channelID, status: "closed", subscribers: nil)
        note("channel \(channelID.prefix(8)) deleted by its owner: no longer served")
    }

    /// Relay side: a subscriber asks to leave a channel we serve.
    func relayReceivedLeave(from subscriber: PublicKey, channelID: String) {
        channels.earlyRequests[channelID]?.removeAll { $0 == subscriber }
        guard var service = channels.services[channelID] else { return }
        service.waiting.removeAll { $0 == subscriber }
        if let fanOutID = service.fanOutID, chats[fanOutID]?.members.contains(subscriber) == true, !service.leaving.contains(subscriber) {
            service.leaving.append(subscriber)
        }
        channels.services[channelID] = service
        note("subscriber \(subscriber.hex.prefix(8)) leaves \(channelID.prefix(8))")
    }

    /// Relay side, from `pumpChatRelay`: the subscribers who asked to leave go in one remove commit.
    /// True when a commit was started (one commit per group at a time).
    func removeLeavingSubscribers(_ channelID: String, from fanOut: ChatRecord) async -> Bool {
        guard let leaving = channels.services[channelID]?.leaving, !leaving.isEmpty else { return false }
        channels.services[channelID]?.leaving = []
        let members = leaving.filter { fanOut.members.contains($0) }
        guard !members.isEmpty else { return false }
        note("removing \(members.count) subscriber(s) who left from \(fanOut.chatID.prefix(8))")
        await commit(.remove(members), in: fanOut)
        return true
    }
}
