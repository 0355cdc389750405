import Nostr

// A commit of ours that no relay has taken yet, overtaken by the group (docs/group-core.md,
// "Recovery from lost frames", `abandonsOvertakenCommits`).
//
// Our commit got no OK in time and no relay served it back: as far as we can tell no relay has
// it, so nobody else has applied it. Meanwhile the group's relays delivered events we held back,
// and among them may be a competing commit for our epoch that everyone else applied at once.
// Publishing ours again now would bring a commit that MIP-03 may still rank first (same second,
// smaller id) to members who have since built on the other one, past the single rollback point
// an engine keeps: we would merge ours and stay on a fork of one (fault matrix, add-x-rename,
// remove-x-rename and add-x-remove, bob-commit drop and delay). So we give ours up instead: the
// staged commit is cleared, the held events go to the engine in MIP-03 order, and what the user
// asked for is committed again in the epoch that won, as the settle window does for a commit
// that lost its race (a rename too: nobody saw ours, so asking again overrules nothing).
extension GroupCore {
    /// True when the commit was given up for the held events (the caller does nothing more).
    func abandonIfOvertaken(_ pending: PendingCommit) async -> Bool {
        guard configuration.behaviour.recovery.abandonsOvertakenCommits, pending.servedBy.isEmpty,
            !pending.held.isEmpty, let chat = chats[pending.chatID]
        else { return false }
        commits[pending.chatID] = nil
        publishes[pending.eventID] = nil
        timers[pending.timer] = nil
        setBusy("commit-\(pending.chatID)", nil)
        do {
            try await engine.clearPendingCommit(in: chat.mlsGroupID)
        } catch {
            fail(error, during: "clearing \(pending.label)", chatID: pending.chatID)
        }
        note("no relay has commit \(pending.eventID.prefix(8)) (\(pending.label)) and \(pending.held.count) event(s) came meanwhile: cleared, not published again")
        for event in pending.held.sorted(by: Event.inMIP03Order) { await processGroupEvent(event) }
        await askAgain(pending)
        return true
    }

    /// Commits again, in the group's current epoch, what the abandoned commit was for, when it
    /// still means something there.
    private func askAgain(_ pending: PendingCommit) async {
        guard let change = pending.change, let chat = chats[pending.chatID], !chat.isRemoved else { return }
        guard let again = stillWanted(change, in: chat) else {
            note("\(change.label) means nothing in epoch \(chat.epoch) any more")
            return
        }
        guard commits[chat.chatID] == nil else {
            fail(CoreError(.busy, "\(again.label): a commit of ours is waiting for its relays"), chatID: chat.chatID)
            return
        }
        note("asking again for \(again.label) in epoch \(chat.epoch)")
        await commit(again, in: chat)
    }
}

// A commit of ours replaced after its settle window (`redoesLateReplacedCommits`).
//
// The settle window is short (1 s), but a competing commit MIP-03 ranks first can arrive later
// (held back by a relay or a slow link) and still replace ours wherever nothing was built on top
// of it yet. Members ours removed applied it for good (a removed member leaves the group and
// keeps no state to roll back), so forgetting the removal would leave them out while everyone
// else still lists them (fault matrix, remove-x-rename bob-commit reorder). So our commit that
// stood is remembered until a commit builds on it; replaced before that, it is handled as one
// replaced inside the window: an add or remove is committed again in the winning epoch.
extension GroupCore {
    func stoodCommitApplied(_ event: Event, in chatID: String) async {
        guard let entry = stood[chatID], let chat = chats[chatID] else { return }
        stood[chatID] = nil
        // A commit that removed us leaves the epoch where it was: not a replacement.
        guard chat.epoch <= entry.epoch, !chat.isRemoved, event.id.hex != entry.commit.eventID,
            Self.changesMembers(entry)
        else { return }
        note("commit \(entry.commit.eventID.prefix(8)) (\(entry.commit.label)) replaced by \(event.id.hex.prefix(8)) after its settle window")
        await yieldRace(entry.commit, to: event, departed: entry.departed)
    }

    /// Only a commit that changed the member list is redone this late: members it added or
    /// removed hold the group as it left them, and a list that differs from theirs strands them.
    /// A rename, an admin change or a self-update replaced this late stays replaced, as before
    /// (a backdated competing commit, scenarios/hostile/backdated-commit.yaml, undoes one).
    static func changesMembers(_ entry: SettlingCommit) -> Bool {
        switch entry.commit.change {
        case .add, .remove: true
        case nil: !entry.departed.isEmpty
        default: false
        }
    }

    /// Our commit of members' leave proposals lost its race: the proposals died with their
    /// epoch, and a leaver that applied our commit is out of the group in its own eyes, so it
    /// will never propose again, while everyone else still lists it (fault matrix, leave-x-rename
    /// alice-commit delay and reorder: alice's late rename beats bob's commit of carol's leave).
    /// The leavers still members in the winning epoch are removed by us, an admin (`redoesLostLeaves`).
    func leaversToRemove(_ departed: [PublicKey], in chat: ChatRecord) -> [PublicKey]? {
        let still = departed.filter(chat.members.contains)
        guard configuration.behaviour.recovery.redoesLostLeaves, !still.isEmpty, chat.admins.contains(publicKey) else {
            return nil
        }
        note("the leave of \(still.count) member(s) died with the epoch; removing them")
        return still
    }
}
