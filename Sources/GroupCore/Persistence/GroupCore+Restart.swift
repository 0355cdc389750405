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
        CoreSnapshot(
            publicKey: publicKey, nextNumber: nextNumber, nextAcknowledgementToken: nextAcknowledgementToken, published: published,
            chats: chats, currentChatID: currentChatID, chatEvents: chatEvents, leaveRequested: leaveRequested, openPage: openPage,
            errors: errors, failedPeers: failedPeers, decisions: decisions, rejections: rejections, joinResults: joinResults,
            leavingAfterStepDown: leavingAfterStepDown, invitationRoles: invitationRoles, forgedInvitationRoles: forgedInvitationRoles,
            adminInvitations: adminInvitations, declinedDirectMessages: declinedDirectMessages, leaveProposals: leaveProposals,
            epochEnteredAt: epochEnteredAt, deferredCommits: deferredCommits, futureEvents: futureEvents,
            eventsWhileRemoved: eventsWhileRemoved, busy: busy, directory: directory, seenEvents: seenEvents, fetches: fetches,
            commits: commits, invitationQueues: invitationQueues, settling: settling, stood: stood,
            keyPackageAuthors: keyPackageAuthors, publishes: publishes,
            timers: timers.keys.sorted { $0.rawValue < $1.rawValue }.compactMap { token in
                timers[token].map { CoreSnapshot.PersistedTimer(token: token, purpose: $0, milliseconds: timerDurations[token] ?? 0) }
            },
            acknowledgementWatches: acknowledgementWatches, notifications: notifications, outbox: outbox, channels: channels)
    }

    /// Takes over a persisted state; the next `.start` resumes from it.
    /// - Throws: `CoreError` `.stateUnreadable` when the state is another member's, and
    ///   `.busy` when the core has already started (a state is restored into a fresh core only).
    package func restore(_ snapshot: CoreSnapshot) throws(CoreError) {
        guard !started, !restored else { throw CoreError(.busy, "a state is restored only into a core that has not started") }
        guard snapshot.publicKey == publicKey else {
            let owner = snapshot.publicKey.hex.prefix(16)
            throw CoreError(.stateUnreadable, "the state is \(owner)'s, this core is \(publicKey.hex.prefix(16))'s")
        }
        nextNumber = snapshot.nextNumber
        nextAcknowledgementToken = snapshot.nextAcknowledgementToken
        published = snapshot.published
        chats = snapshot.chats
        currentChatID = snapshot.currentChatID
        chatEvents = snapshot.chatEvents
        leaveRequested = snapshot.leaveRequested
        openPage = snapshot.openPage
        errors = snapshot.errors
        failedPeers = snapshot.failedPeers
        decisions = snapshot.decisions
        rejections = snapshot.rejections
        joinResults = snapshot.joinResults
        leavingAfterStepDown = snapshot.leavingAfterStepDown
        invitationRoles = snapshot.invitationRoles
        forgedInvitationRoles = snapshot.forgedInvitationRoles
        adminInvitations = snapshot.adminInvitations
        declinedDirectMessages = snapshot.declinedDirectMessages
        leaveProposals = snapshot.leaveProposals
        epochEnteredAt = snapshot.epochEnteredAt
        deferredCommits = snapshot.deferredCommits
        futureEvents = snapshot.futureEvents
        eventsWhileRemoved = snapshot.eventsWhileRemoved
        busy = snapshot.busy
        directory = snapshot.directory
        seenEvents = snapshot.seenEvents
        fetches = snapshot.fetches
        commits = snapshot.commits
        invitationQueues = snapshot.invitationQueues
        settling = snapshot.settling
        stood = snapshot.stood
        keyPackageAuthors = snapshot.keyPackageAuthors
        publishes = snapshot.publishes
        timers = [:]
        timerDurations = [:]
        for timer in snapshot.timers {
            timers[timer.token] = timer.purpose
            timerDurations[timer.token] = timer.milliseconds
        }
        acknowledgementWatches = snapshot.acknowledgementWatches
        notifications = snapshot.notifications
        outbox = snapshot.outbox
        channels = snapshot.channels
        restored = true
    }

    /// The first input after a restart: the connections' state is made again, nothing is published
    /// anew (profile, relay lists and key package are on the relays already).
    func resume() async {
        started = true
        note("restarted from persisted state at rev \(published.rev)")
        // A subscription lost before the restart is put back below with every other.
        for (token, purpose) in timers where purpose.isResubscription { timers[token] = nil }
        for token in timers.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            emit(.startTimer(token, milliseconds: timerDurations[token] ?? configuration.behaviour.commitTimeoutMilliseconds))
        }
        let urls = Set(configuration.discoveryRelays + configuration.inboxRelays + chats.values.flatMap(\.relays)).sorted()
        for url in urls where !standingSubscriptions(at: url).isEmpty { resubscribe(to: url) }
        resumeFetches()
        resendUnanswered()
        for url in urls { flushOutbox(to: url) }
        changed("restarted")
    }

    /// Publishes still waiting for a relay's answer when the member stopped go out again to the
    /// relays that never answered: their OK (or the frame itself) died with the connection.
    private func resendUnanswered() {
        for (eventID, purpose) in publishes.sorted(by: { $0.key < $1.key }) {
            if case .commit(let chatID) = purpose {
                guard let commit = commits[chatID], commit.eventID == eventID, !commit.outstanding.isEmpty else { continue }
                note("sending commit \(eventID.prefix(8)) again after the restart")
                send(.event(commit.event), to: commit.outstanding.sorted())
            } else if let outstanding = purpose.outstanding, !outstanding.isEmpty, let event = outbox.event(eventID) {
                note("sending \(Self.outboxLabel(purpose, eventID)) again after the restart")
                send(.event(event), to: outstanding.sorted())
            }
        }
    }
}

extension TimerPurpose {
    var isResubscription: Bool { if case .resubscribe = self { true } else { false } }
}
