import EngineInterface
import Nostr

extension GroupCore {
    /// Builds a commit with the engine and publishes it to the group's relays; it is merged only
    /// when one of them accepts it (MIP-02/03), and its welcomes leave only after that merge.
    func commit(_ change: CommitChange, in chat: ChatRecord) async {
        if await deferIfEpochUnsettled(change, in: chat) { return }
        // Adds are split so that every welcome fits its path (GroupCore+Invitations.swift).
        if case .add(let keyPackages) = change { return await commitAdd(keyPackages, in: chat) }
        let group = chat.mlsGroupID
        do {
            let evolution: GroupEvolution
            switch change {
            case .add: return
            case .remove(let members): evolution = try await engine.removeMembers(from: group, pubkeys: members)
            case .rename(let name): evolution = try await engine.updateGroupData(of: group, GroupDataChanges(name: name))
            case .admins(let adding, let removing, _):
                let admins = CommitChange.admins(chat.admins, adding: adding, removing: removing)
                evolution = try await engine.updateGroupData(of: group, GroupDataChanges(admins: admins))
            case .selfUpdate: evolution = try await engine.selfUpdate(in: group)
            case .disband: evolution = try await engine.disbandGroup(group)
            case .groupData(let changes, _): evolution = try await engine.updateGroupData(of: group, changes)
            }
            await publishCommit(evolution, label: change.label, change: change, in: chat.chatID)
        } catch {
            fail(error, during: change.label, chatID: chat.chatID)
        }
    }

    /// Publishes an evolution we hold pending in the engine and waits for an accepting OK.
    /// `change` is what to ask for again if the commit loses a MIP-03 race (nil: nothing).
    func publishCommit(_ evolution: GroupEvolution, label: String, change: CommitChange?, in chatID: String) async {
        guard let chat = chats[chatID] else { return }
        let eventID = evolution.event.id.hex
        let invitees = evolution.welcomeRumors.compactMap { rumor in welcomeInvitee(of: rumor) }
        guard invitees.count == evolution.welcomeRumors.count else {
            try? await engine.clearPendingCommit(in: chat.mlsGroupID)
            fail(CoreError(.engine, "\(label): a welcome rumor names no key package we fetched"), chatID: chatID)
            return
        }
        let timer = startTimer(.commit(chatID: chatID, eventID: eventID), milliseconds: configuration.behaviour.commitTimeoutMilliseconds)
        commits.begin(
            PendingCommit(
                chatID: chatID, event: evolution.event, label: label, change: change, outstanding: Set(chat.relays),
                welcomes: zip(evolution.welcomeRumors, invitees).map { WelcomeRumor(rumor: $0, invitee: $1) }, timer: timer
            ))
        traffic.publishes[eventID] = .commit(chatID: chatID)
        setBusy("commit-\(chatID)", BusyOperation(kind: label, chatID: chatID))
        // Boundary 1: the prepared commit is recorded (write-ahead) and nothing has gone out.
        if crashes(at: .preparedNotPublished, writeAhead: true) { return }
        note("published commit \(eventID.prefix(8)) (\(label)) to \(chat.relays.count) relay(s), waiting for OK")
        publishSigned(evolution.event, to: chat.relays)
    }

    /// The invitee of a welcome rumor: the author of the key package its `e` tag names.
    private func welcomeInvitee(of rumor: UnsignedEvent) -> PublicKey? {
        guard let keyPackageID = rumor.tags.first(where: { $0.first == "e" && $0.count > 1 })?[1] else { return nil }
        return keyPackageLookups.keyPackageAuthors[keyPackageID]
    }

    func commitAcknowledged(chatID: String, eventID: String, accepted: Bool, message: String, from url: String) async {
        // Boundary 2: the relay stored our commit; its OK dies with us before anything records it.
        if accepted, commits.inFlight(eventID, in: chatID) != nil, crashes(at: .acknowledgementUncertain) { return }
        guard let pending = commits.answer(chatID: chatID, eventID: eventID, from: url, refusal: accepted ? nil : message)
        else { return }
        if accepted {
            await commitAccepted(pending, by: url)
        } else {
            if pending.outstanding.isEmpty {
                await abandonCommit(pending, why: "refused by every group relay (\(pending.refusals.joined(separator: "; ")))")
            }
        }
    }

    /// No OK in time. The relay may have stored the commit and lost only its OK: peers would then
    /// apply it while we cleared it, and the group would split for good (no engine can apply its
    /// own commit once cleared). So: if a relay served the commit back on our group subscription,
    /// it stored it, and that counts as its accepting OK now. Otherwise the same signed event goes
    /// out again to the relays that have not answered, waiting twice as long each time; a relay
    /// that has it answers `OK true "duplicate:"` (NIP-01) and we merge. Events of the group stay
    /// held meanwhile, so MIP-03 order is decided at the acceptance exactly as for a first answer.
    /// Only after the last attempt is the commit cleared.
    func commitTimedOut(chatID: String, eventID: String) async {
        guard var pending = commits.inFlight(eventID, in: chatID) else { return }
        let behaviour = configuration.behaviour
        if behaviour.recovery.storedCommits, let url = pending.servedBy.first {
            note("no OK for commit \(eventID.prefix(8)) (\(pending.label)), but \(url) serves it: stored, as its OK would say")
            await commitAcknowledged(chatID: chatID, eventID: eventID, accepted: true, message: "served", from: url)
            return
        }
        if behaviour.recovery.storedCommits, pending.republished < behaviour.commitRepublishAttempts,
            !pending.outstanding.isEmpty
        {
            pending.republished += 1
            let wait = behaviour.commitTimeoutMilliseconds << UInt64(pending.republished)
            pending.timer = startTimer(.commit(chatID: chatID, eventID: eventID), milliseconds: wait)
            commits.update(pending)
            let relays = pending.outstanding.sorted()
            note(
                "no OK for commit \(eventID.prefix(8)) (\(pending.label)); publishing it again (\(pending.republished)) to \(relays.count) relay(s)"
            )
            send(.event(pending.event), to: relays)
            return
        }
        let waited = (0...pending.republished).reduce(UInt64(0)) { $0 + (behaviour.commitTimeoutMilliseconds << UInt64($1)) }
        await abandonCommit(pending, why: "no accepting OK within \(waited) ms (\(pending.republished + 1) publish(es))")
    }

    /// Our pending commit came back on a group subscription: the relay stored it (it serves only
    /// what it stores). Remembered, and used if the relay's OK never comes (see `commitTimedOut`):
    /// the OK stays what merges a commit in the ordinary case (MIP-02/03). True when the event
    /// was our pending commit.
    func ownCommitServed(_ event: Event, by url: String) -> Bool {
        guard configuration.behaviour.recovery.storedCommits, case .commit(let chatID) = traffic.publishes[event.id.hex],
            let newly = commits.served(eventID: event.id.hex, in: chatID, by: url)
        else { return false }
        if newly { note("relay \(url) serves our commit \(event.id.hex.prefix(8)) before its OK") }
        return true
    }

    /// MIP-03: applied only after a relay accepted it, then the events held back meanwhile follow
    /// in MIP-03 order (a competing commit among them that precedes ours replaces it in the
    /// engine). The welcomes wait for the settle window.
    private func commitAccepted(_ pending: PendingCommit, by url: String) async {
        end(pending)
        // Boundary 3: the acceptance is known (in memory only) and the engine has not merged.
        if crashes(at: .confirmedNotMerged) { return }
        let chatID = pending.chatID
        let before = chats[chatID]?.members ?? []
        if await merge(pending, acceptedBy: url), let chat = chats[chatID] {
            let timer = startTimer(
                .commitSettled(chatID: chatID, eventID: pending.eventID),
                milliseconds: configuration.behaviour.commitSettleMilliseconds)
            commits.startSettling(
                SettlingCommit(commit: pending, epoch: chat.epoch, timer: timer, departed: before.filter { !chat.members.contains($0) }))
        }
        await leaveProposalAfterCommit(in: chatID)
        for event in pending.held.sorted(by: Event.inMIP03Order) {
            // Boundary 6: the held batch is frozen and being resolved; the member dies before
            // the next of it (the first included) is applied.
            if crashes(at: .heldBatchPartial) { return }
            await processGroupEvent(event)
        }
        await retryFutureEvents(in: chatID)
    }

    /// Merges our accepted commit. It goes to the engine as the event it is, so that the engine
    /// keeps the state before it (MDK 0.8.0 does so for its own pending commit met in
    /// `process_message`; a plain merge keeps nothing, and a better competing commit arriving
    /// later could not replace it). An engine that answers otherwise gets the plain merge.
    private func merge(_ pending: PendingCommit, acceptedBy url: String) async -> Bool {
        guard let chat = chats[pending.chatID] else { return false }
        do {
            switch configuration.behaviour.ownCommitMerge {
            case .asReceived:
                let result = try await engine.processMessage(pending.event)
                if case .commit = result {
                } else {
                    // A rejection is named by its description, as it was before errors recorded
                    // where they were made: the line an error came from must not reach the trace.
                    let answer = if case .rejected(let error) = result { "rejected(\(error))" } else { "\(result)" }
                    note("engine answered \(answer) for our own commit; merging it plainly")
                    try await engine.mergePendingCommit(in: chat.mlsGroupID)
                }
            case .plain:
                try await engine.mergePendingCommit(in: chat.mlsGroupID)
            }
        } catch {
            fail(error, during: "merging \(pending.label)", chatID: pending.chatID)
            return false
        }
        // Boundary 4: the engine merged (durable); nothing is derived from it yet.
        if crashes(at: .appliedNotDerived) { return false }
        await refresh(pending.chatID)
        note(
            "merged commit \(pending.eventID.prefix(8)) (\(pending.label)) after OK from \(url); epoch \(chats[pending.chatID]?.epoch ?? 0)"
        )
        return true
    }

    /// A commit was applied to a group where a commit of ours is settling: if the epoch did not
    /// move past ours, the engine replaced ours with a better competing commit (MIP-03).
    func commitApplied(_ event: Event, in chatID: String) {
        guard let epochNow = chats[chatID]?.epoch else { return }
        for (id, entry) in commits.markReplaced(in: chatID, epochNow: epochNow, by: event) {
            note("commit \(id.prefix(8)) (\(entry.commit.label)) replaced by \(event.id.hex.prefix(8))")
        }
    }

    /// The settle window is over: welcomes leave if our commit still stands.
    func commitSettled(chatID: String, eventID: String) async {
        // Boundaries 4 and 5: the settle timer fired; welcomes and derived notices are not out.
        if commits.settling[eventID] != nil, crashes(at: .settleTimerFired) { return }
        guard let entry = commits.takeSettled(eventID) else { return }
        timers.running[entry.timer] = nil
        if let winner = entry.replacedBy {
            await yieldRace(entry.commit, to: winner, departed: entry.departed)
        } else {
            let commit = entry.commit
            if configuration.behaviour.recovery.redoesLateReplacedCommits { commits.stand(entry) }
            ui.actions.stood(in: commit.chatID)
            await afterMerge(chatID: commit.chatID, welcomed: !commit.welcomes.isEmpty, label: commit.label)
            await sendHistory(to: commit.welcomes.map(\.invitee), in: commit.chatID)
            sendWelcomes(commit.welcomes)
        }
        await continueInvitations(in: entry.commit.chatID)
    }

    /// Kind-445 events of a group whose commit of ours waits for its OK are held back.
    /// Returns false when nothing waits (process the event now).
    func holdIfCommitPending(_ event: Event, chatID: String) -> Bool {
        guard let pending = commits.hold(event, in: chatID) else { return false }
        note("held \(event.id.hex.prefix(8)) while commit \(pending.eventID.prefix(8)) waits for its OK")
        return true
    }

    /// What `change` still asks for in `chat`'s current epoch, or nil when it means nothing there:
    /// the invitees not yet members, the targets still members, an admin list that still differs, a
    /// self-update always; each (but the self-update) only while we are an admin.
    func stillWanted(_ change: CommitChange, in chat: ChatRecord) -> CommitChange? {
        let isAdmin = chat.admins.contains(publicKey)
        switch change {
        case .add(let keyPackages):
            let fresh = keyPackages.filter { !chat.members.contains($0.pubkey) }
            return fresh.isEmpty || !isAdmin ? nil : .add(fresh)
        case .remove(let targets):
            let still = targets.filter(chat.members.contains)
            return still.isEmpty || !isAdmin ? nil : .remove(still)
        case .selfUpdate:
            return .selfUpdate
        case .admins(let adding, let removing, _):
            let wanted = CommitChange.admins(chat.admins, adding: adding, removing: removing)
            return Set(wanted) == Set(chat.admins) || !isAdmin ? nil : change
        case .rename, .groupData:
            return isAdmin ? change : nil
        case .disband:
            // group-lifecycle-v1.md: a request that lost its branch is made again against the
            // winner, while we are still an admin.
            return isAdmin ? change : nil
        }
    }

    /// Whether the group already holds what `change` asked for (the winner did it, or it no longer
    /// means anything): then dropping it loses nothing.
    static func carriedOut(_ change: CommitChange, in chat: ChatRecord) -> Bool {
        switch change {
        case .add(let keyPackages): keyPackages.allSatisfy { chat.members.contains($0.pubkey) }
        case .remove(let targets): !targets.contains(where: chat.members.contains)
        case .admins(let adding, let removing, _):
            Set(CommitChange.admins(chat.admins, adding: adding, removing: removing)) == Set(chat.admins)
        // A disband the winner made already ended the chat (yieldRace stops before asking this).
        case .selfUpdate, .rename, .groupData, .disband: false
        }
    }

    /// A competing commit won the race (MIP-03): ours is never merged and its welcomes never
    /// leave (they would strand their invitees on a fork). An add or remove that still means
    /// something is asked for again in the winning epoch; a rename or other change that lost is
    /// reported, since the winner's state is now the group's.
    func yieldRace(_ pending: PendingCommit, to winner: Event, departed: [PublicKey] = []) async {
        guard let chat = chats[pending.chatID] else { return }
        note("commit \(pending.eventID.prefix(8)) (\(pending.label)) lost the MIP-03 race to \(winner.id.hex.prefix(8))")
        guard !chat.isRemoved else { return }
        let superseded = CoreError(
            .commitSuperseded, "\(pending.label): a competing commit \(winner.id.hex.prefix(8)) won the epoch (MIP-03)")
        let again: CommitChange?
        switch pending.change {
        case .rename, .groupData:
            // The winner's state is the group's now; renaming again would overrule MIP-03.
            fail(superseded, chatID: pending.chatID)
            return
        case nil:
            guard let leavers = leaversToRemove(departed, in: chat) else { return }
            again = .remove(leavers)
        case let change?:
            again = stillWanted(change, in: chat)
            if again == nil, !Self.carriedOut(change, in: chat) {
                // Not silently: the user asked for it, and nothing will carry it out now.
                fail(
                    CoreError(
                        .raceLostNotRedone,
                        "\(pending.label): lost the epoch to \(winner.id.hex.prefix(8)) and not asked for again: no longer an admin"),
                    chatID: pending.chatID)
                return
            }
        }
        guard let again else { return }
        guard !commits.isPending(in: chat.chatID) else {
            fail(superseded, chatID: pending.chatID)
            return
        }
        note("asking again for \(again.label) in epoch \(chat.epoch)")
        await commit(again, in: chat)
    }

    /// Not acknowledged: the staged commit is cleared, not merged, and the action fails visibly;
    /// events held back meanwhile are processed in MIP-03 order.
    private func abandonCommit(_ pending: PendingCommit, why: String) async {
        end(pending)
        guard let chat = chats[pending.chatID] else { return }
        do {
            try await engine.clearPendingCommit(in: chat.mlsGroupID)
            note("cleared commit \(pending.eventID.prefix(8)) (\(pending.label))")
        } catch {
            fail(error, during: "clearing \(pending.label)", chatID: pending.chatID)
        }
        fail(CoreError(.commitNotAcknowledged, "\(pending.label): \(why)"), chatID: pending.chatID)
        for event in pending.held.sorted(by: Event.inMIP03Order) { await processGroupEvent(event) }
    }

    private func end(_ pending: PendingCommit) {
        commits.finish(in: pending.chatID)
        traffic.publishes[pending.eventID] = nil
        timers.running[pending.timer] = nil
        setBusy("commit-\(pending.chatID)", nil)
    }
}
