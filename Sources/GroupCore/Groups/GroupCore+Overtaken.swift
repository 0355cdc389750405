import Nostr

// A commit of ours the engine left for a competitor the group built on (docs/group-core.md,
// "Recovery from lost frames", "Commits the group built on").
//
// MIP-03 ranked ours first, but it reached the others only after they had applied the competitor
// and a commit on top of it, past the one state an engine keeps to roll back to: they refuse ours
// for good, and an engine that meets a commit built on the competitor moves to that branch
// (`ProcessingResult.rivalCommit`; our engine does, NativeSwiftEngine+RivalBranch.swift). For us
// that is our commit lost to a competitor, as if it had lost its race: inside its settle window
// its welcomes never leave and what it was for is asked for again at the window's end; after the
// window, the commit we remembered as standing is redone at once (a rename lost is reported,
// `core.commitSuperseded`, as for any race it loses).
extension GroupCore {
    func commitLeftForRival(_ replaced: EventID, competitor: EventID, by event: Event, in chatID: String) async {
        // The competitor was refused when it came (MIP-03 ranked it second); the group holds it now.
        if ui.rejections.contains(where: { $0.eventID == competitor.hex }) {
            ui.rejections.removeAll { $0.eventID == competitor.hex }
            changed("withdrawn rejection \(competitor.hex.prefix(8))")
        }
        guard configuration.behaviour.recovery.redoesCommitsLeftForRival else { return }
        if let entry = commits.markLeftForRival(replaced.hex, in: chatID, by: event) {
            note("commit \(replaced.hex.prefix(8)) (\(entry.commit.label)) left for the branch \(event.id.hex.prefix(8)) builds on")
            return
        }
        guard let entry = commits.standing(replaced.hex, in: chatID), let chat = chats[chatID], !chat.isRemoved
        else { return }
        commits.forgetStanding(in: chatID)
        note(
            "commit \(replaced.hex.prefix(8)) (\(entry.commit.label)) left for the branch \(event.id.hex.prefix(8)) builds on, after its settle window"
        )
        await yieldRace(entry.commit, to: event, departed: entry.departed)
    }
}

// A commit of ours replaced after its settle window (`redoesLateReplacedCommits`).
//
// The settle window is short (1 s), but a competing commit ranked first can arrive later and
// still replace ours wherever nothing was built on top of it yet: under MIP-03's created_at rule
// when a relay or a slow link holds it back (or its author backdates it), and under the current
// profile whenever its committer's account key is the lower one, however late it comes
// (docs/current-profile.md, branch choice). Our user was told the change was done, so it is
// never undone in silence: our commit that stood is remembered until a commit builds on it, and
// replaced before that it is handled as one replaced inside the window. An add, a remove or an
// admin change still wanted is committed again in the winning epoch (members ours removed applied
// it for good and keep no state to roll back: forgetting the removal would leave them out while
// everyone else still lists them, fault matrix remove-x-rename bob-commit reorder); one that can
// no longer be carried out is `core.raceLostNotRedone`, and a rename or other group data lost is
// `core.commitSuperseded` (re-applying it would overrule the race rule).
extension GroupCore {
    func stoodCommitApplied(_ event: Event, in chatID: String) async {
        guard let chat = chats[chatID], let entry = commits.takeStanding(in: chatID) else { return }
        // A commit that removed us leaves the epoch where it was: not a replacement.
        guard chat.epoch <= entry.epoch, !chat.isRemoved, event.id.hex != entry.commit.eventID,
            Self.redoneLate(entry)
        else { return }
        note(
            "commit \(entry.commit.eventID.prefix(8)) (\(entry.commit.label)) replaced by \(event.id.hex.prefix(8)) after its settle window"
        )
        await yieldRace(entry.commit, to: event, departed: entry.departed)
    }

    /// Every change a user asked for is handled this late (scenarios/concurrent-commits/
    /// demoted-admin-loses-race-current.yaml: an admin change replaced two seconds after its
    /// merge was undone with nothing said). Only our own self-update, which no user asked for and
    /// which leaves no member list or state behind, stays replaced, as before.
    static func redoneLate(_ entry: SettlingCommit) -> Bool {
        switch entry.commit.change {
        case .selfUpdate: false
        case nil: !entry.departed.isEmpty
        default: true
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
