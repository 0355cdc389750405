import Nostr

// Commits on a settled epoch only (MIP-03 "Commit Message Race Conditions").
//
// A received commit can still lose its epoch to a competing commit that arrives a little later
// (earlier created_at, or smaller id in the same second): the engine then rolls back to the state
// before it. But an engine keeps one rollback point per group, so a commit of ours merged on top
// of the loser in the meantime cannot be undone: we stay on a fork with whoever our commit
// welcomed (three admins renaming, adding and removing in one epoch split this way). So in a
// group with several admins, a commit we are asked for within the second after a received commit
// moved the group waits `commitSettleMilliseconds` first (once), and is then built in whatever
// epoch won. Single-admin groups and quiet groups commit at once, as before.
extension GroupCore {
    /// True when `change` was put off until the chat's epoch settles.
    func deferIfEpochUnsettled(_ change: CommitChange, in chat: ChatRecord) async -> Bool {
        guard configuration.behaviour.recovery.settlesBeforeCommitting, chat.admins.count > 1,
            let deferral = commits.deferIfUnsettled(change, in: chat.chatID, now: now)
        else { return false }
        if deferral == .first {
            _ = startTimer(.deferredCommits(chatID: chat.chatID), milliseconds: configuration.behaviour.commitSettleMilliseconds)
        }
        note("\(change.label) waits for epoch \(chat.epoch) of \(chat.chatID.prefix(8)) to settle")
        return true
    }

    /// The epoch has settled: each waiting change that still means something is committed in
    /// whatever epoch won, one at a time (a later one waits for the one before like any action).
    func commitDeferred(in chatID: String) async {
        guard let changes = commits.takeDeferred(in: chatID), let chat = chats[chatID], !chat.isRemoved else { return }
        guard chat.admins.contains(publicKey) || changes.allSatisfy({ if case .selfUpdate = $0 { true } else { false } }) else {
            // The user asked for these; say why nothing will carry them out.
            let dropped = changes.filter { !Self.carriedOut($0, in: chat) }
            if !dropped.isEmpty {
                fail(
                    CoreError(
                        .raceLostNotRedone,
                        "\(dropped.map(\.label).joined(separator: ", ")): waited for the epoch to settle and is no longer an admin"),
                    chatID: chatID)
            }
            return
        }
        for change in changes {
            guard let chat = chats[chatID] else { return }
            let still: CommitChange?
            switch change {
            case .add(let keyPackages):
                let fresh = keyPackages.filter { !chat.members.contains($0.pubkey) }
                still = fresh.isEmpty ? nil : .add(fresh)
            case .remove(let targets):
                let members = targets.filter(chat.members.contains)
                still = members.isEmpty ? nil : .remove(members)
            default:
                still = change
            }
            guard let still else { continue }
            guard !commits.isPending(in: chatID) else {
                fail(CoreError(.busy, "\(still.label): a commit of ours is waiting for its relays"), chatID: chatID)
                continue
            }
            await commit(still, in: chat)
        }
    }
}
