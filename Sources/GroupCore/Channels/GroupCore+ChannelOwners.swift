// Who owns a channel, as owners and subscribers see it (the channels document: subscribers are
// shown the channel's owners), and how an owner leaves.
//
// A co-owner leaves in two steps. First it signs a kind-4466 event naming the owners that remain
// (every owner but itself) and sends it like a broadcast, as an application message of the channel
// group; relays forward it into their fan-outs, so subscribers learn the new list from the same
// owner-signed bytes whatever relay brings them. Then it steps down as an admin of the channel
// group and proposes to leave, which a remaining owner commits (an admin cannot leave under
// MIP-03). A receiver accepts the list only when an owner signed it and it is exactly the owners
// it knows minus that owner: an owner can take itself out, nobody else, and nobody can add one.
//
// The last owner cannot leave (`core.lastChannelOwner`): a channel nobody owns could never post,
// delete or test its relays again. It deletes the channel instead.
//
//   owners     kind 4466 application message, content = the NIP-01 JSON of a kind-4466 event
//              signed by the leaving owner, tags [["h", <channel id>]], content {"owners": [hex…]}
//                                                                     owner → relays → subscribers
import EngineInterface
import Nostr

extension Kind {
    package static let channelOwners: Kind = 4466
}

extension CoreError.Code {
    /// The last owner of a channel asked to leave it: it must delete the channel instead.
    package static let lastChannelOwner = Self("core.lastChannelOwner")
}

extension GroupCore {
    /// An owner leaves its channel: refused for the last owner; otherwise the remaining owners are
    /// announced (signed by us) and we step down and leave the channel group.
    func ownerLeavesChannel(_ channelID: String) async {
        guard let channel = channels.records[channelID], channel.role == .owner, !channel.left, let chat = chats[channelID],
            !chat.isRemoved
        else {
            fail(CoreError(.unknownChat, "we own no channel \(channelID)"), chatID: channelID)
            return
        }
        let remaining = channel.owners.filter { $0 != publicKey }
        guard !remaining.isEmpty else {
            fail(
                CoreError(.lastChannelOwner, "the last owner of \(channel.name) cannot leave it: delete the channel instead"),
                chatID: channelID)
            return
        }
        do {
            let content = JSONValue.object(["owners": .array(remaining.map { .string($0.hex) })]).serialized()
            let (_, event) = try await ownerSigned(.channelOwners, content: content, as: .channelOwners, in: chat)
            traffic.publishes[event.id.hex] = .control(chatID: channelID, outstanding: Set(chat.relays))
            traffic.outbox.track(event)
            publishSigned(event, to: chat.relays)
        } catch let error as EngineError {
            fail(error, during: "announcing the remaining owners", chatID: channelID)
            return
        } catch {
            fail(CoreError(.engine, "signing the remaining owners: \(error)"), chatID: channelID)
            return
        }
        channels.records[channelID]?.owners = remaining
        channels.records[channelID]?.left = true
        if let timer = channel.timer { timers.running[timer] = nil }
        channels.records[channelID]?.timer = nil
        changed("channel \(channelID.prefix(8)) left as owner")
        note("left channel \(channelID.prefix(8)) as owner: \(remaining.count) owner(s) remain")
        membership.leaveRequested.insert(channelID)
        membership.leavingAfterStepDown.insert(channelID)
        await commit(.admins(adding: [], removing: [publicKey], label: "step down"), in: chat)
        if commits.isIdle(in: channelID) { membership.leavingAfterStepDown.remove(channelID) }
    }

    /// The owners an owner-signed kind-4466 `content` leaves, when it is valid against `owners`:
    /// signed by one of them, for this channel, naming exactly the others. Else nil.
    static func remainingOwners(_ content: String, channelID: String, owners: [PublicKey]) -> (signer: PublicKey, owners: [PublicKey])? {
        guard let inner = try? Event(json: content), inner.kind == .channelOwners, inner.firstTagValue("h") == channelID,
            owners.contains(inner.pubkey), let listed = (try? JSONValue(parsing: inner.content))?.object?["owners"]?.array
        else { return nil }
        let named = listed.compactMap { $0.string.flatMap { try? PublicKey(hex: $0) } }
        let expected = owners.filter { $0 != inner.pubkey }
        guard named.count == listed.count, named == expected, !named.isEmpty else { return nil }
        return (inner.pubkey, named)
    }

    /// Owner side: another owner left (seen in the channel group, sent by that owner).
    func ownerReceivedOwners(_ received: ReceivedMessage, in channelID: String) {
        guard let channel = channels.records[channelID],
            let update = Self.remainingOwners(received.rumor.content, channelID: channelID, owners: channel.owners),
            update.signer == received.sender
        else {
            note("ignored an owner list in \(channelID.prefix(8)) not signed by its leaving owner")
            return
        }
        channels.records[channelID]?.owners = update.owners
        changed("channel \(channelID.prefix(8)) owner \(update.signer.hex.prefix(8)) left")
    }

    /// Subscriber side: a relay's fan-out brought an owner's departure.
    func subscriberReceivedOwners(_ received: ReceivedMessage, channelID: String, relay: PublicKey) {
        guard let channel = channels.records[channelID] else { return }
        guard let update = Self.remainingOwners(received.rumor.content, channelID: channelID, owners: channel.owners) else {
            // Already applied (another relay brought it first) is no offence; anything else is.
            if Self.remainingOwners(received.rumor.content, channelID: channelID, owners: channel.owners + ownersSigning(received)) != nil {
                return
            }
            rejectForwarded(
                received, in: channelID, reason: "channel.notOwner", detail: "an owner list relay \(relay.hex.prefix(8)) forwarded")
            return
        }
        channels.records[channelID]?.owners = update.owners
        changed("channel \(channelID.prefix(8)) owner \(update.signer.hex.prefix(8)) left")
    }

    /// The signer of a forwarded inner event, if it parses (to recognise a list already applied).
    private func ownersSigning(_ received: ReceivedMessage) -> [PublicKey] {
        (try? Event(json: received.rumor.content)).map { [$0.pubkey] } ?? []
    }

    private func rejectForwarded(_ received: ReceivedMessage, in channelID: String, reason: String, detail: String) {
        channels.records[channelID]?.noteRejected(reason)
        ui.rejections.append(Rejection(eventID: received.wrapperID.hex, kind: .groupEvent, reason: reason, detail: detail))
        changed("rejection \(reason)")
    }

    /// Relay side: an owner left a channel we serve; its signed list goes into our fan-out as it is.
    func relayReceivedOwners(_ received: ReceivedMessage, channelID: String) async {
        guard let service = channels.services[channelID], !service.closed, let channel = chats[channelID],
            Self.remainingOwners(received.rumor.content, channelID: channelID, owners: channel.admins)?.signer == received.sender
        else {
            note("ignored an owner list for \(channelID.prefix(8)) not signed by its sending owner")
            return
        }
        guard let fanOutID = service.fanOutID, let fanOut = chats[fanOutID] else { return }
        do {
            let event = try await engine.createMessage(
                in: fanOut.mlsGroupID, sender: publicKey, kind: .channelOwners, content: received.rumor.content, tags: [["h", channelID]])
            publishSigned(event, to: fanOut.relays)
        } catch {
            fail(error, during: "forwarding an owner list", chatID: channelID)
        }
    }
}
