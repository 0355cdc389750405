import EngineInterface
import Nostr

extension GroupCore {
    /// MIP-02 joining: unwrap, process and accept the welcome, subscribe to the group, then
    /// self-update (MDK marks a fresh member `self_update_state = required`).
    func receiveGiftWrap(_ wrap: Event) async {
        let opened: GiftWrap.Unwrapped
        do {
            opened = try GiftWrap.unwrap(wrap, recipient: configuration.keypair)
        } catch {
            reject(wrap, reason: error.code.name, detail: error.reason)
            return
        }
        if opened.rumor.kind == LinkMessage.requestKind || opened.rumor.kind == LinkMessage.answerKind {
            return await receiveLinkMessage(opened, wrap: wrap)
        }
        guard opened.rumor.kind == .welcome else {
            if receiveChannelControl(opened) { return }
            reject(wrap, reason: "core.unexpectedRumorKind", detail: "gift wrap carries kind \(opened.rumor.kind)")
            return
        }
        await join(by: wrap, opened: opened, retry: false)
    }

    /// Processes and accepts a welcome, adopts its group and starts the post-join self-update.
    /// `retry`: it was refused once while we still held its group and a catch-up has since
    /// removed us (GroupCore+HeldWelcomes.swift); refused again it is dropped quietly, accepted
    /// its rejection is withdrawn.
    func join(by wrap: Event, opened: GiftWrap.Unwrapped, retry: Bool) async {
        let snapshot: GroupSnapshot
        if let refusal = keyPackageRefusal(of: opened.rumor, opened: nil) {
            if !retry { reject(wrap, reason: EngineError.Code.invalidWelcome.name, detail: refusal) }
            return
        }
        do {
            let welcome = try await engine.processWelcome(wrapperID: wrap.id, rumor: opened.rumor)
            if let refusal = keyPackageRefusal(of: opened.rumor, opened: welcome.keyPackageRef) {
                try await engine.declineWelcome(welcome.id)
                if !retry { reject(wrap, reason: EngineError.Code.invalidWelcome.name, detail: refusal) }
                return
            }
            if declinesDirectMessage(from: opened.sender, memberCount: welcome.memberCount) {
                try await engine.declineWelcome(welcome.id)
                reject(wrap, reason: PermissionCheck.directMessagesDisabled.reason, detail: "a 1:1 chat the group's preferences forbid")
                return
            }
            if !retry, asksBeforeJoining(from: opened.sender) {
                holdInvitation(welcome, wrap: wrap, sender: opened.sender)
                return
            }
            snapshot = try await engine.acceptWelcome(welcome.id)
        } catch {
            guard !retry else { return }
            reject(wrap, reason: error.code.name, detail: error.reason)
            if error.code == .invalidWelcome { keepRefusedInCatchUp(wrap, opened: opened) }
            // A Welcome of the other profile: the user learns who must upgrade (nothing was joined).
            if error.code == .profileMismatch {
                fail(
                    CoreError(.profileMismatch, "an invitation from \(opened.sender.hex.prefix(8)) was not joined: \(error.reason)"),
                    chatID: nil)
            }
            return
        }
        if retry { withdrawWelcomeRejection(wrap) }
        await welcomed(into: snapshot, from: opened.sender)
    }

    /// A welcome accepted (at once, or by the user from `AppState.invitations`): adopt its group
    /// and start the post-join self-update.
    func welcomed(into snapshot: GroupSnapshot, from sender: PublicKey) async {
        await adopt(snapshot)
        await retryEventsMissedWhileRemoved(in: snapshot.nostrGroupID)
        note("joined \(snapshot.nostrGroupID.prefix(8)) at epoch \(snapshot.epoch) via welcome from \(sender.hex.prefix(8))")
        guard let chat = chats[snapshot.nostrGroupID] else { return }
        if await channelWelcomeAccepted(snapshot, from: sender) { return }
        // Everyone welcomed by one commit joins at the same moment; self-updating at once would
        // put several commits on one epoch (MDK forks a committer that merged a loser). Each
        // joiner waits by its rank among the members, so the commits follow one another.
        let rank = UInt64(chat.members.firstIndex(of: publicKey) ?? 0)
        _ = startTimer(.selfUpdate(chatID: chat.chatID), milliseconds: configuration.behaviour.selfUpdateStaggerMilliseconds * (rank + 1))
    }

    /// Why a welcome rumor does not name the key package it is for, or nil when it does (issue 30,
    /// N12): exactly one `e` tag, naming a key-package event we published, and the one the engine
    /// opened the Welcome with when `opened` (its KeyPackageRef) is known. A core that has published
    /// none in its state (a state from before it kept them) has nothing to compare with and leaves
    /// the Welcome to the engine, which finds no key package of ours in it.
    func keyPackageRefusal(of rumor: UnsignedEvent, opened: String?) -> String? {
        guard CoreReceiverCheck.welcomeKeyPackageEvent.isOn, !keyPackageLookups.own.isEmpty else { return nil }
        let named = rumor.tags.filter { $0.first == "e" }
        guard named.count == 1, named[0].count >= 2 else {
            return "the welcome rumor has \(named.count) e tag(s); MIP-02 asks for one naming the key-package event it used"
        }
        let id = named[0][1].lowercased()
        guard let ref = keyPackageLookups.own[id] else {
            return "its e tag names event \(id.prefix(16)), none of our key-package events"
        }
        if let opened, opened.lowercased() != ref {
            return "its e tag names our key package \(ref.prefix(16)); the Welcome is for our key package \(opened.prefix(16))"
        }
        return nil
    }

    /// The post-join self-update, once its turn has come (and again later if a commit of ours is
    /// still in flight).
    func selfUpdateDue(_ chatID: String) async {
        guard let chat = chats[chatID], !chat.isRemoved else { return }
        guard !commits.isPending(in: chatID) else {
            _ = startTimer(.selfUpdate(chatID: chatID), milliseconds: configuration.behaviour.selfUpdateStaggerMilliseconds)
            return
        }
        await commit(.selfUpdate, in: chat)
    }

    /// MIP-03: a kind-445 event for one of our groups; it waits if a commit of ours is pending there.
    func receiveGroupEvent(_ event: Event) async {
        if holdIfCommitPending(event, chatID: chatID(addressedBy: event.firstTagValue("h") ?? "")) { return }
        await processGroupEvent(event)
    }

    /// Hands a kind-445 event to the engine and applies the result. `retry`: the event was kept
    /// because no key opened it (GroupCore+FutureEvents.swift); it was rejected once already.
    func processGroupEvent(_ event: Event, retry: Bool = false) async {
        let result: ProcessingResult
        let chatID = self.chatID(addressedBy: event.firstTagValue("h") ?? "")
        if deferIfUnrecoverable(event, in: chatID) { return }
        // Boundary 3: the event is admitted and the engine has not been given it.
        if crashes(at: .receivedNotApplied) { return }
        do {
            result = try await engine.processMessage(event)
        } catch {
            reject(event, reason: error.code.name, detail: error.reason)
            keepIfRemoved(event, in: chatID)
            return
        }
        if retry, await retriedFutureEvent(event, result: result, in: chatID) { return }
        switch result {
        case .applicationMessage(let received) where received.rumor.kind == ControlMessage.kind:
            await receiveControl(received, in: chatID)
        case .applicationMessage(let received) where received.rumor.kind == HistoryPacket.kind:
            receiveHistory(received, in: chatID)
        case .applicationMessage(let received):
            if await receiveChannelMessage(received, in: chatID) { return }
            receiveMessage(received, in: chatID)
        case .commit, .rivalCommit:
            // Boundary 4: the engine applied the commit (durable); nothing is derived from it yet.
            if crashes(at: .appliedNotDerived) { return }
            await refresh(chatID)
            note("applied commit \(event.id.hex.prefix(8)); epoch \(chats[chatID]?.epoch ?? 0)")
            if case .rivalCommit(_, let replaced, let competitor) = result {
                await commitLeftForRival(replaced, competitor: competitor, by: event, in: chatID)
            }
            await withdrawInvalidatedMessages(in: chatID)
            commitApplied(event, in: chatID)
            await stoodCommitApplied(event, in: chatID)
            commits.enteredEpoch(chatID, at: now)
            await leaveProposalAfterCommit(in: chatID)
            await retryFutureEvents(in: chatID)
            await retryRefusedWelcomesIfRemoved(from: chatID)
        case .proposal(let evolution):
            await answerProposal(evolution, in: chatID)
            await retryCommitsWaitingForProposal(in: chatID)
        case .pendingProposal, .externalJoinProposal:
            note("proposal \(event.id.hex.prefix(8)) stored")
            await retryCommitsWaitingForProposal(in: chatID)
        case .ignoredProposal(_, let reason):
            note("proposal \(event.id.hex.prefix(8)) ignored: \(reason)")
        case .unprocessable(_, let reason):
            reject(event, reason: "unprocessable", detail: reason)
            keepIfRemoved(event, in: chatID)
            // A commit can name a proposal that has not reached us yet (delayed, reordered).
            if reason == Self.unknownProposalReason { keepForLaterEpoch(event, in: chatID, waitsForProposal: true) }
        case .previouslyFailed:
            reject(event, reason: "previously_failed", detail: "the engine failed this event before")
        case .rejected(let error):
            reject(event, reason: error.code.name, detail: error.reason)
            keepIfRemoved(event, in: chatID)
            if error.code == .undecryptable { keepForLaterEpoch(event, in: chatID) }
        }
    }

    private func receiveMessage(_ received: ReceivedMessage, in chatID: String) {
        guard var chat = chats[chatID] else { return }
        let mine = received.sender == publicKey
        let message = ChatMessage(
            id: received.rumor.id.hex, senderPubkey: received.sender, senderName: displayName(of: received.sender),
            content: received.rumor.content, timestamp: received.rumor.createdAt, isMine: mine,
            delivery: mine ? .sent : .received
        )
        // A message first shown from a history packet and now received in our own epoch counts
        // as received, as if the packet had come second: what alerts a joiner must not depend on
        // the order a relay serves events of one second in.
        guard chat.insert(message) || chat.receivedLive(message.id) else { return }
        if !mine && ui.currentChatID != chatID {
            chat.unread += 1
            chat.unreadIDs = (chat.unreadIDs ?? []) + [message.id]
        }
        chats[chatID] = chat
        recordChatMessage(eventID: received.wrapperID.hex, rumor: received.rumor, sender: received.sender, in: chatID)
        changed("message \(message.id.prefix(8)) in \(chatID.prefix(8))")
        // A message nobody is shown (blocked or not-allowed sender, deleted) alerts nobody either:
        // the one visibility rule decides (State/Visibility.swift).
        guard let recorded = chats[chatID], visibility(of: recorded).isShown(message.id, in: .notifications) else { return }
        notifyIfNeeded(message, kind: received.rumor.kind, in: recorded)
    }

    /// MDK answers a member's SelfRemove proposal with a commit at every receiver. Publishing all
    /// of them would race (MIP-03 picks one, and a committer that merged a loser forks), so only
    /// the admin with the smallest key publishes; everyone else keeps it pending, and the
    /// engine adopts the published commit when it arrives.
    private func answerProposal(_ evolution: GroupEvolution, in chatID: String) async {
        guard let chat = chats[chatID] else { return }
        guard chat.admins.first == publicKey, !commits.isPending(in: chatID) else {
            note("left the proposal's commit to \(chat.admins.first?.hex.prefix(8) ?? "an admin")")
            return
        }
        await publishCommit(evolution, label: "commit proposal", change: nil, in: chatID)
    }
}
