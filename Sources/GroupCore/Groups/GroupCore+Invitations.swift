import EngineInterface
import Nostr

// One user action that invites many peers ("create with 149 invitees", "add 60") becomes as many
// commits as it takes for every welcome to reach its invitee: NIP-44 refuses plaintexts above
// 65,535 bytes (without the extended prefix of nips PR #1907) and each invitee's inbox relays refuse
// events above their limit (`relayEventLimits`, else `welcomeEventLimitBytes`), while a welcome
// carries the whole ratchet tree and, in one commit, every invitee's secrets. So:
// - creation welcomes the invitees the estimate lets fit (`WelcomeBudget.creationBatchSize`),
// - an add commit is built, its welcome rumors measured exactly, and built again with half the
//   invitees (the staged commit cleared) until they fit,
// - the rest wait in `invitationQueues` and are added once the previous commit has settled and its
//   welcomes left (MIP-02), one commit in flight at a time as always.
// An invitee whose welcome cannot fit even alone (the tree itself is too large: ~71-98 members under
// 64 KiB relays, ~143-202 under 128 KiB ones, fewer as self-updates fill parent nodes) is never
// committed: it is a failed peer (`welcome_too_large`) and the action fails with
// `core.welcomeTooLarge`, instead of a member everyone lists and who never joins. When everything fits in one commit, nothing here changes what the core does.
extension GroupCore {
    /// The budget of one invitee's welcome: the largest event one of its inbox relays (its kind
    /// 10050, else ours) takes, since a welcome reaches the invitee once any of them stores it.
    func welcomeBudget(for invitee: PublicKey) -> WelcomeBudget {
        let assumed = configuration.behaviour.welcomeEventLimitBytes
        let inbox = directory.inboxRelays(of: invitee) ?? configuration.inboxRelays
        return WelcomeBudget(maximumEventBytes: inbox.map { configuration.relayEventLimits[$0] ?? assumed }.max() ?? assumed)
    }

    /// The budget of a welcome sent to all of `invitees` (one commit's welcomes are the same size):
    /// the tightest of theirs.
    func welcomeBudget(for invitees: [PublicKey]) -> WelcomeBudget {
        invitees.map(welcomeBudget(for:)).min { $0.maximumRumorBytes < $1.maximumRumorBytes }
            ?? WelcomeBudget(maximumEventBytes: configuration.behaviour.welcomeEventLimitBytes)
    }

    /// The invitees (in order) the creation commit itself should welcome; the others are queued
    /// for add commits once the group exists. (Admins named among the later ones are not made
    /// admins by the creation, whose admin list may name only its own members.)
    func creationInvitees(_ invitees: [(PublicKey, Event)], name: String, description: String, admins: Int)
        -> (now: [(PublicKey, Event)], later: [Event])
    {
        let groupData =
            name.utf8.count + description.utf8.count + configuration.groupRelays.map(\.utf8.count).reduce(0, +)
            + 40 * configuration.groupRelays.count + 33 * admins + 200
        let count = WelcomeBudget.creationBatchSize(
            keyPackages: invitees.map(\.1), budgets: invitees.map { welcomeBudget(for: $0.0) }, groupDataBytes: groupData)
        guard count < invitees.count else { return (invitees, []) }
        note("creating with \(count) of \(invitees.count) invitees; the rest follow in add commits (welcome size)")
        return (Array(invitees.prefix(count)), invitees.dropFirst(count).map(\.1))
    }

    /// Builds an add commit whose welcomes all fit, queues the invitees it leaves out, and
    /// publishes it. Called for every add (user, race retry, queued invitations).
    func commitAdd(_ keyPackages: [Event], in chat: ChatRecord) async {
        let group = chat.mlsGroupID
        var remaining = keyPackages
        var batch = keyPackages
        do {
            while !batch.isEmpty {
                let budget = welcomeBudget(for: batch.map(\.pubkey))
                let evolution = try await engine.addMembers(to: group, keyPackages: batch)
                if evolution.welcomeRumors.allSatisfy(budget.fits) {
                    queueInvitations(Array(remaining.dropFirst(batch.count)), in: chat.chatID)
                    if batch.count < remaining.count {
                        note("adding \(batch.count) of \(remaining.count) invitees in this commit (welcome size)")
                    }
                    let change = CommitChange.add(batch)
                    await publishCommit(evolution, label: change.label, change: change, in: chat.chatID)
                    return
                }
                try await engine.clearPendingCommit(in: group)
                guard batch.count > 1 else {
                    // The tree only grows: nobody whose inbox takes no larger event fits either.
                    let rumorBytes = evolution.welcomeRumors.map { $0.rumorJSON().utf8.count }.max() ?? 0
                    let tooLarge = remaining.filter { welcomeBudget(for: $0.pubkey).maximumRumorBytes <= budget.maximumRumorBytes }
                    refuseOversized(tooLarge, in: chat, rumorBytes: rumorBytes, budget: budget)
                    remaining.removeAll { keyPackage in tooLarge.contains { $0.id == keyPackage.id } }
                    batch = remaining
                    continue
                }
                batch = Array(batch.prefix(batch.count / 2))
            }
        } catch {
            fail(error, during: CommitChange.add(batch).label, chatID: chat.chatID)
        }
    }

    /// Invitees left for later commits of this chat.
    func queueInvitations(_ keyPackages: [Event], in chatID: String) {
        guard !keyPackages.isEmpty else { return }
        let waiting = commits.queueInvitations(keyPackages, in: chatID)
        note("\(waiting) invitee(s) wait for a later add commit")
    }

    /// After a commit of ours settled (its welcomes left): the next queued invitees, if any.
    func continueInvitations(in chatID: String) async {
        guard let queued = commits.nextInvitations(in: chatID), !queued.isEmpty,
            let chat = chats[chatID], !chat.isRemoved, chat.admins.contains(publicKey)
        else { return }
        let fresh = queued.filter { !chat.members.contains($0.pubkey) }
        guard !fresh.isEmpty else { return }
        // Through `commit`, so that a multi-admin group's settle rule applies as to any add.
        await commit(.add(fresh), in: chat)
    }

    /// Not even one welcome fits: the group is too large for the path. Nobody is committed.
    private func refuseOversized(_ keyPackages: [Event], in chat: ChatRecord, rumorBytes: Int, budget: WelcomeBudget) {
        let why =
            "a welcome into \(chat.members.count + 1) members is a \(rumorBytes)-byte rumor; its gift wrap fits NIP-44 "
            + "and \(budget.maximumEventBytes)-byte relay events only up to \(budget.maximumRumorBytes) bytes"
        record(keyPackages.map { FailedPeer(pubkey: $0.pubkey, reason: .welcomeTooLarge, detail: why, chatID: nil) }, chatID: chat.chatID)
        fail(CoreError(.welcomeTooLarge, "\(keyPackages.count) invitee(s) not added: \(why)"), chatID: chat.chatID)
    }
}
