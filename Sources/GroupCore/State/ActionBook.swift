// Every action the user starts ends in a reported outcome (docs/group-core.md, "Action outcomes"):
// done, a typed error naming why (`AppState.errors`, including `core.raceLostNotRedone` for a commit
// that lost its MIP-03 race and was not asked for again), or a question put to the user (a pending
// decision). The book follows each action from its dispatch until one of those; the runner checks
// after every scenario that none was left without one. It is the core's own record, not part of
// `AppState` (so it adds no update and no trace line), and it is not persisted: a restarted core
// starts an empty book.

/// How an action ended.
package enum ActionOutcome: Hashable, Sendable {
    /// Carried out: a commit stood past its settle window, or the action needed nothing in flight.
    case done
    /// Refused or failed, with the error's code (the error itself is in `AppState.errors`).
    case failed(CoreError.Code)
    /// The core asks the user what to do (`AppState.pendingDecisions`); `decide` is an action of its own.
    case askedUser
}

/// One action the user started, and how it ended (nil while it has not).
package struct ActionRecord: Hashable, Sendable {
    /// Dispatch order, from 1.
    package let number: Int
    /// The action's name in the trace vocabulary.
    package let verb: String
    /// The chat it acts on, nil for actions that make one (or act on a channel).
    package let chatID: String?
    package var outcome: ActionOutcome?
    /// `AppState.errors` held this many errors when it was dispatched: later ones in its chat are its.
    let errorsFrom: Int
    /// A commit of ours was in flight in its chat while it was open: it is done only once a commit
    /// stands past its settle window there (`ActionBook.stood`), never merely because nothing is
    /// left in flight (a commit that lost its race and was dropped leaves nothing in flight).
    var awaitsStanding = false
    var stood = false
}

/// The actions of this core's life, in dispatch order.
struct ActionBook: Sendable {
    var records: [ActionRecord] = []

    /// The action just dispatched; its index.
    mutating func open(verb: String, chatID: String?, errorsFrom: Int) -> Int {
        records.append(ActionRecord(number: records.count + 1, verb: verb, chatID: chatID, errorsFrom: errorsFrom))
        return records.count - 1
    }

    /// A commit of ours stood in `chatID` past its settle window.
    mutating func stood(in chatID: String) {
        for index in records.indices where records[index].outcome == nil && records[index].chatID == chatID {
            records[index].stood = true
        }
    }
}

extension GroupCore {
    /// The actions dispatched since this core was made, with their outcomes (for the runner's check).
    package func actionRecords() -> [ActionRecord] { ui.actions.records }

    /// Dispatches `action` and records it: an error of its own turn ends it as failed; an action that
    /// left nothing more in flight than there was is done at once; anything else stays open until
    /// `concludeActions` ends it.
    func performRecorded(_ action: AppAction) async {
        let chatID = action.actedOnChatID
        let before = inFlightCount(for: chatID)
        let index = ui.actions.open(verb: action.verb.rawValue, chatID: chatID, errorsFrom: ui.errors.count)
        await perform(action)
        guard !configuration.behaviour.dropsActionOutcomes else { return }
        if let error = ui.errors.dropFirst(ui.actions.records[index].errorsFrom).first {
            ui.actions.records[index].outcome = .failed(error.code)
        } else if inFlightCount(for: chatID) <= before {
            ui.actions.records[index].outcome = .done
        }
    }

    /// After every input: each open action ends when an error in its chat was recorded since it
    /// was dispatched, when the core asks the user about it, or when nothing of it is in flight
    /// any more (and, if a commit of ours was, one stood).
    func concludeActions() {
        for index in ui.actions.records.indices where ui.actions.records[index].outcome == nil {
            let record = ui.actions.records[index]
            if configuration.behaviour.dropsActionOutcomes { continue }
            if let error = ui.errors.dropFirst(record.errorsFrom).first(where: { $0.chatID == record.chatID }) {
                ui.actions.records[index].outcome = .failed(error.code)
                continue
            }
            if !membership.decisions.isEmpty, membership.decisions.values.contains(where: { $0.purpose.chatID == record.chatID }) {
                ui.actions.records[index].outcome = .askedUser
                continue
            }
            if commitsInFlight(in: record.chatID) { ui.actions.records[index].awaitsStanding = true }
            guard inFlightCount(for: record.chatID) == 0 else { continue }
            if !ui.actions.records[index].awaitsStanding || record.stood { ui.actions.records[index].outcome = .done }
        }
    }

    /// A commit of ours is on its way in `chatID`: waiting for its OK, or merged and settling.
    private func commitsInFlight(in chatID: String?) -> Bool {
        guard let chatID else { return false }
        return commits.pending[chatID] != nil || commits.settling.values.contains { $0.commit.chatID == chatID }
    }

    /// How many things of actions on `chatID` are under way: operations a spinner shows (a commit
    /// waiting for its OK, a key-package lookup), commits settling, changes put off, invitees queued
    /// for a later add (for actions without a chat: lookups for a chat to be made).
    private func inFlightCount(for chatID: String?) -> Int {
        let busy = ui.busy.values.filter { $0.chatID == chatID }.count
        guard let chatID else { return busy }
        return busy + commits.settling.values.filter { $0.commit.chatID == chatID }.count
            + (commits.deferred[chatID]?.count ?? 0) + (commits.invitationQueues[chatID]?.count ?? 0)
    }
}

extension AppAction {
    /// The chat the action acts on; nil for those that make one or act on a channel.
    var actedOnChatID: String? {
        switch self {
        case .createChat, .createGroup, .decide, .joinByLink, .createChannel, .retryChannel, .testChannelRelays, .joinChannel,
            .retryJoinChannel, .broadcast, .leaveChannel, .deleteChannel, .acceptInvitation, .declineInvitation,
            .openLink, .joinPrepared, .cancelPrepared:
            return nil
        case .forged(let inner):
            return inner.actedOnChatID
        case .addMembers(let chatID, _, _, _), .removeMembers(let chatID, _, _), .leave(let chatID), .rename(let chatID, _),
            .updateDescription(let chatID, _), .updateRelays(let chatID, _), .rotateRouting(let chatID), .setImage(let chatID, _),
            .sendMessage(let chatID, _), .openChat(let chatID, _), .loadOlderMessages(let chatID), .selfUpdate(let chatID),
            .setRole(let chatID, _, _), .deleteMessage(let chatID, _), .block(let chatID, _), .unblock(let chatID, _),
            .setPreferences(let chatID, _), .setRoles(let chatID, _), .sendMedia(let chatID, _, _),
            .startDirectMessage(let chatID, _), .react(let chatID, _, _), .publishRoleTable(let chatID),
            .createGroupLink(let chatID, _, _), .changeGroupLink(let chatID, _), .deleteGroupLink(let chatID),
            .admitJoin(let chatID, _, _), .rejectJoin(let chatID, _), .deleteGroup(let chatID, _, _), .shareHistory(let chatID, _),
            .markRead(let chatID), .mute(let chatID), .unmute(let chatID), .disband(let chatID):
            return chatID
        }
    }
}
