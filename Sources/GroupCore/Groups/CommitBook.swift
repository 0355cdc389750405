import Nostr

/// Our commits, from publication to standing, and what waits on them (docs/group-core.md, "The
/// commit book"): one commit in flight per chat, until a relay accepts it (MIP-02/03); its settle
/// window, in which a competing commit MIP-03 ranks first can still replace it; the commit that
/// stood, until a commit builds on it; changes put off until a freshly entered epoch settles;
/// our leave proposals; invitees left for later add commits.
///
/// The book holds the rules that read and write only these records; what needs the engine, the
/// configuration or a chat's members stays with the core, which passes in what a rule needs.
struct CommitBook: Sendable {
    /// How many times a leave proposal is made before giving up (one, plus re-proposals after
    /// commits that moved the group on without us leaving).
    static let maximumLeaveProposals = 5

    /// Chat id → our commit waiting for one accepting OK.
    var pending: [String: PendingCommit] = [:]
    /// Commit event id → our merged commit in its settle window.
    var settling: [String: SettlingCommit] = [:]
    /// Chat id → our commit that left its settle window standing, until a commit builds on it:
    /// a competing commit MIP-03 ranks first can still replace it (Groups/GroupCore+Overtaken.swift).
    var stood: [String: SettlingCommit] = [:]
    /// Chat id → changes of ours waiting for the chat's epoch to settle (Groups/GroupCore+Settle.swift).
    var deferred: [String: [CommitChange]] = [:]
    /// When (Unix seconds) a received commit last moved each chat to a new epoch.
    var epochEnteredAt: [String: UInt64] = [:]
    /// Chats we proposed to leave: the epoch of our latest proposal and how many we made
    /// (Groups/GroupCore+Leave.swift).
    var leaveProposals: [String: LeaveProposal] = [:]
    /// Invitees of one action left for later add commits, so that each welcome fits its path
    /// (Groups/GroupCore+Invitations.swift).
    var invitationQueues: [String: [Event]] = [:]

    // MARK: - The commit in flight

    /// Our commit was published: it is the chat's commit in flight.
    mutating func begin(_ commit: PendingCommit) { pending[commit.chatID] = commit }

    /// Our commit `eventID`, if it is the chat's commit in flight.
    func inFlight(_ eventID: String, in chatID: String) -> PendingCommit? {
        guard let commit = pending[chatID], commit.eventID == eventID else { return nil }
        return commit
    }

    /// The chat's commit in flight, changed (published again, with a new timer).
    mutating func update(_ commit: PendingCommit) { pending[commit.chatID] = commit }

    /// The chat's commit in flight was merged or cleared.
    mutating func finish(in chatID: String) { pending[chatID] = nil }

    /// Whether a commit of ours waits for its relays in the chat (another one must wait).
    func isPending(in chatID: String) -> Bool { pending[chatID] != nil }

    /// Whether nothing of ours is on its way in the chat: no commit in flight, none put off.
    func isIdle(in chatID: String) -> Bool { pending[chatID] == nil && deferred[chatID] == nil }

    /// The answer of `url` to our commit `eventID` in `chatID`; nil when no answer of that relay is
    /// awaited for that commit (another commit, or the relay answered already). A refusal is
    /// recorded with the relay's message; an acceptance is left to the caller, which ends the commit.
    mutating func answer(chatID: String, eventID: String, from url: String, refusal: String?) -> PendingCommit? {
        guard var commit = pending[chatID], commit.eventID == eventID, commit.outstanding.remove(url) != nil else {
            return nil
        }
        if let refusal {
            commit.refusals.append("\(url): \(refusal)")
            pending[chatID] = commit
        }
        return commit
    }

    /// Our commit `eventID` came back from `url` on a group subscription before that relay's OK:
    /// nil when it is not our commit in flight or `url` answered already; true when `url` is
    /// remembered now, false when it was already.
    mutating func served(eventID: String, in chatID: String, by url: String) -> Bool? {
        guard var commit = pending[chatID], commit.eventID == eventID, commit.outstanding.contains(url) else { return nil }
        guard !commit.servedBy.contains(url) else { return false }
        commit.servedBy = (commit.servedBy + [url]).sorted()
        pending[chatID] = commit
        return true
    }

    /// Holds back a group event while our commit waits for its OK; nil (not held) when none waits.
    mutating func hold(_ event: Event, in chatID: String) -> PendingCommit? {
        guard var commit = pending[chatID] else { return nil }
        commit.held.append(event)
        pending[chatID] = commit
        return commit
    }

    // MARK: - Settle window and standing

    /// Our commit was merged: it settles until its timer fires.
    mutating func startSettling(_ entry: SettlingCommit) { settling[entry.commit.eventID] = entry }

    /// The settle window of commit `eventID` is over: its entry, no longer settling.
    mutating func takeSettled(_ eventID: String) -> SettlingCommit? { settling.removeValue(forKey: eventID) }

    /// Our commit left its settle window standing: remembered until a commit builds on it.
    mutating func stand(_ entry: SettlingCommit) { stood[entry.commit.chatID] = entry }

    /// Our commit that stood in `chatID`, no longer remembered.
    mutating func takeStanding(in chatID: String) -> SettlingCommit? { stood.removeValue(forKey: chatID) }

    mutating func forgetStanding(in chatID: String) { stood[chatID] = nil }

    /// A commit was applied to a chat where commits of ours settle: each one the chat's epoch has
    /// not moved past (`epochNow`) was replaced by `event` in the engine (MIP-03). Returns those
    /// marked now, by commit event id.
    /// Our own commit served back (after a restart it is no longer known as seen) replaces nothing:
    /// a commit never loses a race to itself.
    mutating func markReplaced(in chatID: String, epochNow: UInt64, by event: Event) -> [(id: String, entry: SettlingCommit)] {
        var marked: [(id: String, entry: SettlingCommit)] = []
        for (id, entry) in settling
        where entry.commit.chatID == chatID && entry.replacedBy == nil && epochNow <= entry.epoch && id != event.id.hex {
            settling[id]?.replacedBy = event
            marked.append((id, entry))
        }
        return marked
    }

    /// Our commit `eventID` was left for a branch `event` builds on while still settling in
    /// `chatID`: marked replaced; nil when it is not settling there or was replaced already.
    mutating func markLeftForRival(_ eventID: String, in chatID: String, by event: Event) -> SettlingCommit? {
        guard let entry = settling[eventID], entry.commit.chatID == chatID, entry.replacedBy == nil else { return nil }
        settling[eventID]?.replacedBy = event
        return entry
    }

    /// Our commit that stood in `chatID`, if it is `eventID`.
    func standing(_ eventID: String, in chatID: String) -> SettlingCommit? {
        guard let entry = stood[chatID], entry.commit.eventID == eventID else { return nil }
        return entry
    }

    // MARK: - Changes put off until an epoch settles

    /// What became of a change asked for just after a received commit moved its chat.
    enum Deferral: Equatable {
        /// The first change put off in the chat: the caller starts the settle timer.
        case first
        /// Put off behind others already waiting (their timer is running).
        case behindOthers
    }

    /// A received commit moved `chatID` to a new epoch at `now`.
    mutating func enteredEpoch(_ chatID: String, at now: UInt64) { epochEnteredAt[chatID] = now }

    /// Puts `change` off when the chat entered its epoch within the second before `now` (MIP-03:
    /// a competing commit may still replace that epoch); nil when the epoch has settled (commit
    /// now). A chat's epoch puts off changes once: the entry time is used up.
    mutating func deferIfUnsettled(_ change: CommitChange, in chatID: String, now: UInt64) -> Deferral? {
        guard let entered = epochEnteredAt[chatID], now <= entered + 1 else { return nil }
        epochEnteredAt[chatID] = nil
        let deferral: Deferral = deferred[chatID] == nil ? .first : .behindOthers
        deferred[chatID, default: []].append(change)
        return deferral
    }

    /// The changes put off in `chatID`, in the order they were asked for; they are no longer kept.
    mutating func takeDeferred(in chatID: String) -> [CommitChange]? { deferred.removeValue(forKey: chatID) }

    // MARK: - Leave proposals

    /// What to do about our leave proposal after a commit moved its chat.
    enum LeaveStep: Equatable {
        /// The proposal died with its epoch: propose again.
        case proposeAgain
        /// No admin committed it after this many proposals: it is given up (forgotten).
        case givenUp(attempts: Int)
    }

    /// Our proposal to leave `chatID` was made in `epoch`, the `attempts`-th.
    mutating func recordLeaveProposal(in chatID: String, epoch: UInt64, attempts: Int) {
        leaveProposals[chatID] = LeaveProposal(epoch: epoch, attempts: attempts)
    }

    /// We are out of the chat: nothing more to propose there.
    mutating func forgetLeaveProposal(in chatID: String) { leaveProposals[chatID] = nil }

    /// How many proposals the next one to leave `chatID` makes.
    func nextLeaveAttempt(in chatID: String) -> Int { (leaveProposals[chatID]?.attempts ?? 0) + 1 }

    /// A commit moved `chatID`; `epoch` is its epoch now if we are still a member there, else nil
    /// (the proposal is then forgotten: it was carried out, or the chat is gone). A proposal of
    /// an earlier epoch died with it (RFC 9420 §12.1) and is made again, unless a commit of ours
    /// is in flight (its outcome comes first) or the proposals are used up.
    mutating func leaveProposalAfterCommit(in chatID: String, memberAt epoch: UInt64?) -> LeaveStep? {
        guard let proposal = leaveProposals[chatID] else { return nil }
        guard let epoch else {
            leaveProposals[chatID] = nil
            return nil
        }
        guard epoch > proposal.epoch, pending[chatID] == nil else { return nil }
        guard proposal.attempts < Self.maximumLeaveProposals else {
            leaveProposals[chatID] = nil
            return .givenUp(attempts: proposal.attempts)
        }
        return .proposeAgain
    }

    // MARK: - Invitees waiting for a later add commit

    /// Queues invitees left out of a commit; returns how many wait in the chat now.
    mutating func queueInvitations(_ keyPackages: [Event], in chatID: String) -> Int {
        invitationQueues[chatID, default: []] += keyPackages
        return invitationQueues[chatID]?.count ?? 0
    }

    /// The invitees waiting in `chatID`, taken out of the queue, once no commit of ours is in
    /// flight there (one at a time); nil while one is, or when none wait.
    mutating func nextInvitations(in chatID: String) -> [Event]? {
        guard pending[chatID] == nil else { return nil }
        return invitationQueues.removeValue(forKey: chatID)
    }
}
