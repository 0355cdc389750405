import EngineInterface
import Nostr

// History for new members (docs/group-core.md, "History for new members"): the admin whose commit
// added members sends them the chat's last messages in their first epoch; joiners show them as
// history, never notified, deduplicated by the original rumor id.
extension GroupCore {
    /// Once our add commit has settled, after the role snapshot and before the welcomes: the
    /// packet is encrypted in the joiners' first epoch, like the snapshot. Nothing is sent while
    /// the owner turned the preference off, in a deleted group, or when there is nothing to show
    /// (so adds without earlier messages publish what they always did).
    func sendHistory(to joiners: [PublicKey], in chatID: String, forged: Bool = false) async {
        guard chatRelayConduct == nil, !channels.isFanOut(chatID), !joiners.isEmpty,
            let chat = chats[chatID], !chat.isRemoved, !chat.messages.isEmpty
        else { return }
        let view = roleView(of: chat)
        guard forged || (view.preferences?.historyForNewMembers ?? true) && view.deletion == nil else { return }
        let rumors: [UnsignedEvent]
        do {
            rumors = try await historyRumors(of: chat, visibility: visibility(of: chat, view: view))
        } catch {
            fail(error, during: "reading the history for new members", chatID: chatID)
            return
        }
        guard !rumors.isEmpty else { return }
        var packet = HistoryPacket(recipients: joiners, messages: rumors)
        // The packet is one application message: it must stay well inside a relay's event
        // limit after MLS and base64, so the oldest entries give way first.
        while packet.json().utf8.count > configuration.behaviour.historyBudgetBytes, !packet.messages.isEmpty {
            packet.messages.removeFirst()
        }
        guard !packet.messages.isEmpty else { return }
        do {
            let event = try await engine.createMessage(
                in: chat.mlsGroupID, sender: publicKey, kind: HistoryPacket.kind, content: packet.json(), tags: [])
            note("history of \(packet.messages.count) message(s) for \(joiners.count) joiner(s) in \(chatID.prefix(8))")
            if configuration.behaviour.recovery.controlOutbox {
                // Tracked like a control message: it waits while our relays are unreachable.
                traffic.publishes[event.id.hex] = .control(chatID: chatID, outstanding: Set(chat.relays))
                traffic.outbox.track(event, relays: chat.relays)
            }
            publishSigned(event, to: chat.relays)
        } catch {
            fail(error, during: "sending the history for new members", chatID: chatID)
        }
    }

    /// The last `historyForNewMembersCount` chat messages (kind 9) our engine holds and we show,
    /// oldest first, as their original rumors. Messages we only know as history ourselves are
    /// left out: the engine does not hold their rumors.
    private func historyRumors(of chat: ChatRecord, visibility: Visibility) async throws(EngineError) -> [UnsignedEvent] {
        let shown = Set(visibility.shown(chat.messages, in: .joinerHistory).map(\.id))
        var seen: Set<EventID> = []
        let rumors = try await engine.messages(in: chat.mlsGroupID).map(\.rumor).filter {
            $0.kind == .chatMessage && shown.contains($0.id.hex) && seen.insert($0.id).inserted
        }
        let ordered = rumors.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        return Array(ordered.suffix(configuration.behaviour.historyForNewMembersCount))
    }

    /// `AppAction.shareHistory`: an admin sends the history to a member again (its first packet
    /// may have come in an epoch it could not read). A forged one (a non-admin's modified client)
    /// skips the sender's checks, so that scenarios show every receiver refusing it.
    func shareHistory(_ chatID: String, with member: PublicKey, forged: Bool) async {
        guard let chat = writableChat(chatID, needsAdmin: !forged) else { return }
        guard chat.members.contains(member), member != publicKey else {
            fail(CoreError(.invalidAction, "\(member.hex.prefix(8)) is not another member of \(chatID.prefix(8))"), chatID: chatID)
            return
        }
        guard forged || roleView(of: chat).preferences?.historyForNewMembers ?? true else {
            fail(CoreError(.historyDisabled, "the owner turned history for new members off in \(chatID.prefix(8))"), chatID: chatID)
            return
        }
        await sendHistory(to: [member], in: chatID, forged: forged)
    }

    /// A history packet from the group. Every member judges it (a non-admin's is refused by all,
    /// like a forged snapshot); only the joiners it names take its messages in.
    func receiveHistory(_ received: ReceivedMessage, in chatID: String) {
        guard let chat = chats[chatID] else { return }
        let packet: HistoryPacket
        do {
            packet = try HistoryPacket(json: received.rumor.content)
        } catch {
            return refuseHistory(received, error)
        }
        // The admin bit of the epoch the packet was decrypted in, as for control messages.
        if configuration.behaviour.checksHistorySender, !chat.admins.contains(received.sender) {
            return refuseHistory(received, CoreError(.historyNotFromAdmin, "history from non-admin \(received.sender.hex.prefix(8))"))
        }
        if let preferences = roleView(of: chat).preferences, !preferences.historyForNewMembers {
            return refuseHistory(received, CoreError(.historyDisabled, "history for new members is off in \(chatID.prefix(8))"))
        }
        guard packet.recipients.contains(publicKey) else {
            note("history \(received.wrapperID.hex.prefix(8)) is for other members")
            return
        }
        var added = 0
        for rumor in packet.messages {
            let mine = rumor.pubkey == publicKey
            let message = ChatMessage(
                id: rumor.id.hex, senderPubkey: rumor.pubkey, senderName: displayName(of: rumor.pubkey), content: rumor.content,
                timestamp: rumor.createdAt, isMine: mine, delivery: mine ? .sent : .received, isHistory: true)
            // Deduplicated by the original id: a message we already have (received live, or in an
            // earlier packet) stays as it is. No unread count, no notification: it is not new.
            guard chats[chatID]?.insert(message) == true else { continue }
            recordChatMessage(eventID: received.wrapperID.hex, rumor: rumor, sender: rumor.pubkey, in: chatID)
            added += 1
        }
        note("history \(received.wrapperID.hex.prefix(8)): \(added) of \(packet.messages.count) message(s) new")
        if added > 0 { changed("history in \(chatID.prefix(8))") }
    }

    private func refuseHistory(_ received: ReceivedMessage, _ error: CoreError) {
        ui.rejections.append(Rejection(eventID: received.wrapperID.hex, kind: .groupEvent, reason: error.code.name, detail: error.reason))
        note("rejected history \(received.wrapperID.hex.prefix(8)): \(error.code.name)")
        changed("rejection \(error.code.name)")
    }
}

extension ChatRecord {
    /// A message first shown from a history packet has now come in one of our own epochs: it is
    /// received like any other (counted unread, notified), no longer history. False when there is
    /// nothing to change (no such message, or not history).
    mutating func receivedLive(_ id: String) -> Bool {
        guard let index = messages.firstIndex(where: { $0.id == id }), messages[index].isHistory else { return false }
        messages[index].isHistory = false
        return true
    }
}
