import Nostr

// A member's app stops (killed, rebooted) and starts again: its engine reopens its own store, and
// its core is made from the state it persisted after its last input (docs/core-state-format.md).
// Nothing a user or a peer was told is lost, because everything that told them is in the state:
// messages and their delivery, the outbox and its waiting publishes, our commits waiting for an OK
// or settling, decisions, queues, role books, channels. What belonged to the connections that died
// is made again on `.start`: every subscription is put back and catches up on what was stored while
// the member was down (its own commit among it: a relay that serves our commit back stored it, the
// stored-commit recovery), every running timer starts again, and every publish still waiting for a
// relay's answer goes out again (the same signed event: a relay that has it answers "duplicate:").
extension GroupCore {
    /// Everything the core keeps across a restart.
    package func snapshot() -> CoreSnapshot {
        // Field by field: the snapshot keeps its own flat shape (docs/core-state-format.md), so
        // the books can be cut differently without changing a byte of the file.
        CoreSnapshot(
            publicKey: publicKey, nextNumber: session.nextNumber, nextAcknowledgementToken: traffic.nextAcknowledgementToken,
            published: ui.published, chats: chats, currentChatID: ui.currentChatID, chatEvents: ui.chatEvents,
            leaveRequested: membership.leaveRequested, openPage: ui.openPage, errors: ui.errors, failedPeers: ui.failedPeers,
            decisions: membership.decisions, rejections: ui.rejections, joinResults: ui.joinResults,
            leavingAfterStepDown: membership.leavingAfterStepDown, invitationRoles: membership.invitationRoles,
            forgedInvitationRoles: membership.forgedInvitationRoles, adminInvitations: membership.adminInvitations,
            declinedDirectMessages: membership.declinedDirectMessages, leaveProposals: commits.leaveProposals,
            epochEnteredAt: commits.epochEnteredAt, deferredCommits: commits.deferred, futureEvents: catchUp.futureEvents,
            eventsWhileRemoved: catchUp.eventsWhileRemoved, busy: ui.busy, directory: directory, seenEvents: traffic.seenEvents.oldestFirst,
            fetches: keyPackageLookups.fetches, commits: commits.pending, invitationQueues: commits.invitationQueues,
            settling: commits.settling, stood: commits.stood, keyPackageAuthors: keyPackageLookups.keyPackageAuthors,
            publishes: traffic.publishes,
            timers: timers.running.keys.sorted { $0.rawValue < $1.rawValue }.compactMap { token in
                timers.running[token].map {
                    CoreSnapshot.PersistedTimer(token: token, purpose: $0, milliseconds: timers.durations[token] ?? 0)
                }
            },
            acknowledgementWatches: traffic.acknowledgementWatches, notifications: ui.notifications, outbox: traffic.outbox,
            channels: channels, ownKeyPackages: keyPackageLookups.own.isEmpty ? nil : keyPackageLookups.own)
    }

    /// Takes over a persisted state; the next `.start` resumes from it.
    /// - Throws: `CoreError` `.stateUnreadable` when the state is another member's, and
    ///   `.busy` when the core has already started (a state is restored into a fresh core only).
    package func restore(_ snapshot: CoreSnapshot) throws(CoreError) {
        guard !session.started, !session.restored else {
            throw CoreError(.busy, "a state is restored only into a core that has not started")
        }
        guard snapshot.publicKey == publicKey else {
            let owner = snapshot.publicKey.hex.prefix(16)
            throw CoreError(.stateUnreadable, "the state is \(owner)'s, this core is \(publicKey.hex.prefix(16))'s")
        }
        session.nextNumber = snapshot.nextNumber
        traffic.nextAcknowledgementToken = snapshot.nextAcknowledgementToken
        ui.published = snapshot.published
        chats = snapshot.chats
        ui.currentChatID = snapshot.currentChatID
        // The route is kept with the state last published (it is the UI's, and part of it).
        if case .chat(let chatID) = snapshot.published.route { ui.routeChatID = chatID }
        ui.chatEvents = snapshot.chatEvents
        membership.leaveRequested = snapshot.leaveRequested
        ui.openPage = snapshot.openPage
        ui.errors = snapshot.errors
        ui.failedPeers = snapshot.failedPeers
        membership.decisions = snapshot.decisions
        ui.rejections = snapshot.rejections
        ui.joinResults = snapshot.joinResults
        membership.leavingAfterStepDown = snapshot.leavingAfterStepDown
        membership.invitationRoles = snapshot.invitationRoles
        membership.forgedInvitationRoles = snapshot.forgedInvitationRoles
        membership.adminInvitations = snapshot.adminInvitations
        membership.declinedDirectMessages = snapshot.declinedDirectMessages
        commits.leaveProposals = snapshot.leaveProposals
        commits.epochEnteredAt = snapshot.epochEnteredAt
        commits.deferred = snapshot.deferredCommits
        catchUp.futureEvents = snapshot.futureEvents
        catchUp.eventsWhileRemoved = snapshot.eventsWhileRemoved
        ui.busy = snapshot.busy
        directory = snapshot.directory
        traffic.seenEvents = SeenEvents(oldestFirst: snapshot.seenEvents, cap: retainedEventIDs)
        keyPackageLookups.fetches = snapshot.fetches
        commits.pending = snapshot.commits
        if !configuration.behaviour.recovery.keepsHeldBatch {
            for id in commits.pending.keys { commits.pending[id]?.held = [] }
        }
        commits.invitationQueues = snapshot.invitationQueues
        commits.settling = snapshot.settling
        commits.stood = snapshot.stood
        keyPackageLookups.keyPackageAuthors = snapshot.keyPackageAuthors
        keyPackageLookups.own = snapshot.ownKeyPackages ?? [:]
        traffic.publishes = snapshot.publishes
        timers = TimerBook()
        for timer in snapshot.timers {
            timers.running[timer.token] = timer.purpose
            timers.durations[timer.token] = timer.milliseconds
        }
        traffic.acknowledgementWatches = snapshot.acknowledgementWatches
        ui.notifications = snapshot.notifications
        traffic.outbox = snapshot.outbox
        channels = snapshot.channels
        session.restored = true
    }

    /// The first input after a restart: the connections' state is made again, nothing is published
    /// anew (profile, relay lists and key package are on the relays already).
    func resume() async {
        session.started = true
        note("restarted from persisted state at rev \(ui.published.rev)")
        // A subscription lost before the restart is put back below with every other.
        for (token, purpose) in timers.running where purpose.isResubscription { timers.running[token] = nil }
        let recovery = configuration.behaviour.recovery
        for token in timers.running.keys.sorted(by: { $0.rawValue < $1.rawValue }) where recovery.restartsTimers {
            emit(.startTimer(token, milliseconds: timers.durations[token] ?? configuration.behaviour.commitTimeoutMilliseconds))
        }
        let urls = Set(configuration.discoveryRelays + configuration.inboxRelays + chats.values.flatMap(\.relays)).sorted()
        for url in urls where recovery.resubscribesAfterRestart && !standingSubscriptions(at: url).isEmpty { resubscribe(to: url) }
        resumeFetches()
        if recovery.marksUnrecoverableGroups { await markUnrecoverableChats() }
        if recovery.rederivesAfterRestart { await rederiveStaleChats() }
        if recovery.resendsAfterRestart { resendUnanswered() }
        for url in urls { flushOutbox(to: url) }
        changed("restarted")
    }

    /// A chat whose group the engine moved past what the core derived (the member died after the
    /// engine applied a commit and before the core read it: restart-matrix boundary 4) is read
    /// again, so its views, removal and notices follow the engine's state. Chats that agree are
    /// left alone (nothing is told twice).
    private func rederiveStaleChats() async {
        for chatID in chats.keys.sorted() {
            // A branch switch leaves the epoch as it was: its invalidated messages are checked apart.
            await withdrawInvalidatedMessages(in: chatID)
            guard let chat = chats[chatID], !chat.isRemoved,
                let group = try? await engine.group(chat.mlsGroupID), group.epoch != chat.epoch || group.state == .inactive
            else { continue }
            note("group \(chatID.prefix(8)) is at epoch \(group.epoch) in the engine, \(chat.epoch) in the app: read again")
            await refresh(chatID)
        }
    }

    /// Publishes still waiting for a relay's answer when the member stopped go out again to the
    /// relays that never answered: their OK (or the frame itself) died with the connection. In the
    /// order they were written (our chat messages by their monotonic `created_at`), so that a burst
    /// queued offline reaches everyone, and notifies them, in that order; event ids break ties only.
    private func resendUnanswered() {
        func writtenAt(_ eventID: String, _ purpose: PublishPurpose) -> UInt64 {
            if case .message(let chatID, let messageID, _) = purpose,
                let message = chats[chatID]?.messages.first(where: { $0.id == messageID })
            {
                return message.timestamp
            }
            return traffic.outbox.event(eventID)?.createdAt ?? commits.pending.values.first { $0.eventID == eventID }?.event.createdAt ?? 0
        }
        let ordered = traffic.publishes.map { (eventID: $0.key, purpose: $0.value, at: writtenAt($0.key, $0.value)) }
            .sorted { ($0.at, $0.eventID) < ($1.at, $1.eventID) }
        for (eventID, purpose, _) in ordered {
            if case .commit(let chatID) = purpose {
                guard let commit = commits.pending[chatID], commit.eventID == eventID, !commit.outstanding.isEmpty else { continue }
                note("sending commit \(eventID.prefix(8)) again after the restart")
                send(.event(commit.event), to: commit.outstanding.sorted())
            } else if let outstanding = purpose.outstanding, !outstanding.isEmpty, let event = traffic.outbox.event(eventID) {
                note("sending \(Self.outboxLabel(purpose, eventID)) again after the restart")
                send(.event(event), to: outstanding.sorted())
            }
        }
    }
}

extension TimerPurpose {
    var isResubscription: Bool { if case .resubscribe = self { true } else { false } }
}
