import Nostr

/// One role-relevant event of a chat: a control message or a chat message (whose sender's role
/// decides whether it may be shown), with what its receiver knew when it arrived.
struct RoleEntry: Sendable, Codable {
    enum Content: Sendable, Codable {
        case control(ControlMessage.Body)
        case message
        /// A kind-7 reaction (shown like a message, and hidden when reactions are off).
        case reaction
        /// A chat message carrying media (`imeta`): a message, also judged by its kind's preference.
        case media(MediaKind)
    }

    /// The kind-445 wrapper, which a rejection names.
    let eventID: String
    /// The inner rumor id: the tie-breaker of the order, and what a deletion names.
    let rumorID: String
    let actor: PublicKey
    /// The group data's `admin_pubkeys` when we processed the event: what the fold judges the
    /// actor with, and members the table has no rank for (`RoleView.adminBit`).
    let admins: Set<PublicKey>
    /// The actor was in that list. MLS admits an application message only in the epoch it was
    /// sent in, so this is the admin bit the sender had then (a demoted admin's later messages
    /// arrive in epochs where it is gone).
    var actorAdmin: Bool { admins.contains(actor) }
    /// The sender's clock (`ControlMessage.at`, or the chat message's `at` tag).
    let at: UInt64
    /// The sender's own sequence (`ControlMessage.seq`, or the tag's third value).
    var seq: UInt64 = 0
    let content: Content

    /// The table's order: sender clock, then sender, then the sender's sequence (ties: rumor id).
    func precedes(_ other: RoleEntry) -> Bool {
        (at, actor.hex, seq, rumorID) < (other.at, other.actor.hex, other.seq, other.rumorID)
    }
}

/// A chat's role table as an ordered log. The table is never patched in place: every view folds
/// the whole log in (`at`, sender, `seq`) order, so a change that arrives late (reordered, or fetched
/// on catch-up) lands where it belongs, and the judgements of the events after it are redone.
/// Rejections are therefore derived: one that a late authorizing change makes valid disappears.
struct RoleBook: Sendable, Codable {
    /// Set in the creator's own book: it is the owner and needs no snapshot.
    var creator: PublicKey?
    private(set) var entries: [RoleEntry] = []

    /// Inserts in order; false for a rumor already in the log.
    @discardableResult
    mutating func add(_ entry: RoleEntry) -> Bool {
        guard !entries.contains(where: { $0.rumorID == entry.rumorID }) else { return false }
        let index = entries.firstIndex { entry.precedes($0) } ?? entries.endIndex
        entries.insert(entry, at: index)
        return true
    }

    func hasAnnouncedJoin(_ key: PublicKey) -> Bool {
        entries.contains { entry in
            guard entry.actor == key, case .control(.joined) = entry.content else { return false }
            return true
        }
    }

    /// Whether any role change, deletion or block was ever seen (snapshots and chat messages alone
    /// leave a chat's outcome as it was before roles existed).
    var hasChanges: Bool {
        entries.contains {
            // A snapshot counts when it carries more than what Marmot's admin list already says.
            if case .control(.snapshot(let roles, let blocked, let link, let preferences, _)) = $0.content {
                return link != nil || !blocked.isEmpty || preferences != nil
                    || roles.values.contains { ![.owner, .admin, .member].contains($0) }
            }
            if case .message = $0.content { return false }
            if case .reaction = $0.content { return false }
            if case .media = $0.content { return false }
            if case .control(.joined) = $0.content { return false }
            if case .control(.tableRequest) = $0.content { return false }
            return true
        }
    }

    /// The table after the whole log, judged with `disabled` checks skipped (tests only).
    /// `hidesAfterDeletion`: messages and reactions ordered after a valid delete-group are hidden
    /// (written by a member who had not heard of the deletion yet, e.g. offline: the group no
    /// longer exists for anyone, so nobody is shown them; they stay stored, like other hidden
    /// messages, so nothing the relays accepted is lost).
    func view(admins: [PublicKey], disabled: Set<PermissionCheck>, now: UInt64, hidesAfterDeletion: Bool = true) -> RoleView {
        var view = RoleView(admins: Set(admins))
        if let creator {
            view.table[creator] = .owner
            view.known = true
        }
        var authors: [String: PublicKey] = [:]
        /// When the group was deleted (`at` of the valid delete-group), if it was.
        var deletedAt = UInt64.max
        for entry in entries {
            switch entry.content {
            case .message, .reaction, .media: authors[entry.rumorID] = entry.actor
            case .control: break
            }
        }
        var deleted: Set<String> = []
        var creatorRanked = false
        var purged: Set<PublicKey> = []
        if let creator { view.status[creator] = .connected }
        for entry in entries {
            // Invitation status: a member's join announcement makes it accepted; anything it sends
            // after that, connected (whatever the table makes of it).
            if case .control(.joined) = entry.content {
                if view.status[entry.actor] == nil { view.status[entry.actor] = .accepted }
            } else if view.status[entry.actor] == .accepted {
                view.status[entry.actor] = .connected
            }
            // The actor's admin bit is the one of its epoch (`RoleEntry.actorAdmin`); the members it
            // acts on are judged as the table stands at this point of the order (`adminBit`).
            let actorRole = view.role(of: entry.actor, admin: entry.actorAdmin)
            func rank(of key: PublicKey) -> Role {
                key == entry.actor ? actorRole : view.role(of: key, admin: view.adminBit(of: key, epochAdmins: entry.admins))
            }
            func refuse(_ request: PermissionRequest) -> Bool {
                guard let check = PermissionTable.refusal(request, disabled: disabled) else { return false }
                view.rejections.append(
                    Rejection(
                        eventID: entry.eventID, kind: .groupEvent, reason: check.reason,
                        detail: "\(request.action.rawValue) by \(actorRole.rawValue) \(entry.actor.hex.prefix(8))"))
                return true
            }
            switch entry.content {
            case .control(.snapshot(let roles, let blocked, let link, let preferences, let status)):
                // The first snapshot a Marmot admin sent is the base of a joiner's table; later ones
                // (sent for later joiners) are redundant to it, and a non-admin's is forged.
                guard !refuse(PermissionRequest(actor: actorRole, action: .snapshot)) else { continue }
                if view.known, !creatorRanked, entry.actor == creator {
                    // The creator's own creation snapshot: its book needs no base, but takes the
                    // ranks it gave (admins named at creation, members) as joiners do, so that
                    // `adminBit` reads the same table on every member.
                    view.table.merge(roles) { kept, _ in kept }
                    creatorRanked = true
                }
                guard !view.known else { continue }
                view.table = roles
                view.blocked = blocked
                view.link = link
                view.preferences = preferences
                view.status.merge(status) { heard, _ in heard }
                // The snapshot itself is something its sender sent, as it counted on the sender's side.
                if view.status[entry.actor] == .accepted { view.status[entry.actor] = .connected }
                view.known = true
            case _ where !view.known:
                // Before our base we cannot judge; whatever it changed is in the snapshot.
                continue
            case .message where hidesAfterDeletion && entry.at > deletedAt,
                .reaction where hidesAfterDeletion && entry.at > deletedAt,
                .media where hidesAfterDeletion && entry.at > deletedAt:
                // Strictly later: one second is the clock's grain, and a message of the deletion's
                // own second may have been written before it.
                view.hide(entry.rumorID, .deletedGroup)
            case .message:
                if refuse(PermissionRequest(actor: actorRole, action: .send)) { view.hide(entry.rumorID, .senderNotAllowed) }
                if let seconds = view.preferences?.disappearAfterSeconds, seconds > 0, entry.at + seconds <= now {
                    view.hide(entry.rumorID, .expired)
                }
            case .reaction:
                let request = PermissionRequest(actor: actorRole, action: .react, preferences: view.preferences ?? GroupPreferences())
                if refuse(request) { view.hide(entry.rumorID, .senderNotAllowed) }
            case .media(let kind):
                let request = PermissionRequest(actor: actorRole, action: kind.action, preferences: view.preferences ?? GroupPreferences())
                if refuse(request) { view.hide(entry.rumorID, .forbiddenMedia) }
                if let seconds = view.preferences?.disappearAfterSeconds, seconds > 0, entry.at + seconds <= now {
                    view.hide(entry.rumorID, .expired)
                }
            case .control(.directMessage(let target)):
                let request = PermissionRequest(
                    actor: actorRole, action: .directMessage, target: rank(of: target), preferences: view.preferences ?? GroupPreferences())
                if refuse(request) { view.refusedDirectMessages.insert(DirectMessageStart(from: entry.actor, to: target)) }
            case .control(.joined):
                // The role its invitation named applies now (it was judged when the invitation came).
                if let role = view.awaitingJoin.removeValue(forKey: entry.actor) { view.table[entry.actor] = role }
            case .control(.tableRequest):
                break
            case .control(.invitationRole(let target, let role)):
                let request = PermissionRequest(
                    actor: actorRole, action: .setRole, target: rank(of: target), newRole: role,
                    ownTarget: target == entry.actor, otherOwners: view.owners(besides: entry.actor, epochAdmins: entry.admins))
                guard !refuse(request) else { continue }
                view.invitedRoles[target] = role
                // Normally the invitation comes before the join announcement; if not, it applies at once.
                if view.status[target] == nil { view.awaitingJoin[target] = role } else { view.table[target] = role }
            case .control(.setRoles(let changes)):
                // All or nothing: every change is judged against the table as it was before the
                // batch; any refusal refuses the whole batch (`PermissionTable.batchRefusal`).
                let requests = changes.map { change in
                    PermissionRequest(
                        actor: actorRole, action: .setRole, target: rank(of: change.member), newRole: change.role,
                        ownTarget: change.member == entry.actor, otherOwners: view.owners(besides: entry.actor, epochAdmins: entry.admins))
                }
                if let refused = PermissionTable.batchRefusal(requests, disabled: disabled) {
                    _ = refuse(refused)
                    continue
                }
                for change in changes {
                    view.noteCompletion(of: change.member)
                    view.table[change.member] = change.role
                }
            case .control(.preferences(let preferences)):
                if !refuse(PermissionRequest(actor: actorRole, action: .setPreferences)) { view.preferences = preferences }
            case .control(.setRole(let target, let role)):
                let request = PermissionRequest(
                    actor: actorRole, action: .setRole, target: rank(of: target), newRole: role,
                    ownTarget: target == entry.actor, otherOwners: view.owners(besides: entry.actor, epochAdmins: entry.admins))
                if !refuse(request) {
                    view.noteCompletion(of: target)
                    view.table[target] = role
                }
            case .control(.delete(let messageID)):
                let author = authors[messageID]
                let request = PermissionRequest(
                    actor: actorRole, action: .deleteMessage, target: author.map { rank(of: $0) },
                    ownTarget: author == entry.actor, preferences: view.preferences ?? GroupPreferences())
                if !refuse(request) { deleted.insert(messageID) }
            case .control(.block(let target)):
                if !refuse(PermissionRequest(actor: actorRole, action: .block, target: rank(of: target))) {
                    view.blocked.insert(target)
                }
            case .control(.link(let token, let role, let approval)):
                if !refuse(PermissionRequest(actor: actorRole, action: .manageLink, newRole: role)) {
                    // A change keeps the link's admin: requesters address the one who created it.
                    let admin = view.link?.token == token ? view.link?.admin ?? entry.actor : entry.actor
                    view.link = GroupLinkState(token: token, role: role, approval: approval, admin: admin)
                }
            case .control(.linkDelete):
                if !refuse(PermissionRequest(actor: actorRole, action: .manageLink)) { view.link = nil }
            case .control(.joinPending(let requester)):
                if !refuse(PermissionRequest(actor: actorRole, action: .admit)), !view.pending.contains(requester) {
                    view.pending.append(requester)
                }
            case .control(.joinDecided(let requester, _)):
                if !refuse(PermissionRequest(actor: actorRole, action: .admit)) { view.pending.removeAll { $0 == requester } }
            case .control(.deleteGroup(let keepHistory, let notify)):
                if !refuse(PermissionRequest(actor: actorRole, action: .deleteGroup)), view.deletion == nil {
                    view.deletion = keepHistory ? .historyKept : .historyDropped
                    view.deletionNotifies = notify
                    view.deletedBy = entry.actor
                    deletedAt = entry.at
                }
            case .control(.purge(let target)):
                if !refuse(PermissionRequest(actor: actorRole, action: .purge, target: rank(of: target))) { purged.insert(target) }
            case .control(.unblock(let target)):
                if !refuse(PermissionRequest(actor: actorRole, action: .unblock, target: rank(of: target))) {
                    view.blocked.remove(target)
                }
            }
        }
        // An invitation with a role is complete once its member announced its join and holds the
        // role (an owner or admin also needs the Marmot admin bit, which the inviter's commit gives);
        // a later change of role does not undo that (`noteCompletion` before each change).
        for member in view.invitedRoles.keys { view.noteCompletion(of: member) }
        for member in view.completed { view.status[member] = .complete }
        for id in deleted.sorted() { view.hide(id, .deletedMessage) }
        for (id, author) in authors.sorted(by: { $0.key < $1.key }) {
            if view.blocked.contains(author) { view.hide(id, .blockedSender) }
            if purged.contains(author) { view.hide(id, .purgedSender) }
        }
        return view
    }
}

/// A member starting a 1:1 chat with another from a group (`direct-message` control).
struct DirectMessageStart: Hashable, Sendable, Codable {
    let from: PublicKey
    let to: PublicKey
}

/// The role table as folded from a `RoleBook`.
struct RoleView: Sendable {
    /// Marmot admins now (`admin_pubkeys`); the fold judges by its order instead (`adminBit`).
    let admins: Set<PublicKey>
    /// Whether we have a base (we created the group, or an admin's snapshot arrived).
    var known = false
    /// Roles given by control messages; a role a member does not have in the table is `member`.
    var table: [PublicKey: Role] = [:]
    var blocked: Set<PublicKey> = []
    /// Rumor ids of chat messages shown to nobody: deleted, from a blocked member, or sent by
    /// someone who may not send (kept, flagged).
    var hidden: Set<String> = []
    /// Why each of `hidden` is hidden: the first reason the fold met (Visibility.swift).
    var hiddenReasons: [String: HiddenReason] = [:]
    var rejections: [Rejection] = []
    /// The group link, if any (one per group).
    var link: GroupLinkState?
    /// Join requests waiting for an admin's decision, in arrival order.
    var pending: [PublicKey] = []
    /// Set once an owner deleted the group.
    var deletion: GroupDeletion?
    /// Whether that deletion asked for members to be told (a `deleted` chat event).
    var deletionNotifies = false
    /// The owner whose deletion counted: its own chat list drops the chat (001 §9, "Chat is removed").
    var deletedBy: PublicKey?
    /// The owner's preferences (nil until an owner sets some).
    var preferences: GroupPreferences?
    /// Invitation status of members we heard from (others are `invited`).
    var status: [PublicKey: MemberStatus] = [:]
    /// Roles members were invited with (judged and accepted), and those still waiting for the
    /// member's join announcement.
    var invitedRoles: [PublicKey: Role] = [:]
    var awaitingJoin: [PublicKey: Role] = [:]
    /// Invitees that have held their invitation role since announcing their join.
    var completed: Set<PublicKey> = []
    /// 1:1 chats started from this group against its preferences: the target declines their welcome.
    var refusedDirectMessages: Set<DirectMessageStart> = []

    init(admins: Set<PublicKey>) { self.admins = admins }

    /// Hides a message; a reason already recorded for it stays.
    mutating func hide(_ rumorID: String, _ reason: HiddenReason) {
        hidden.insert(rumorID)
        if hiddenReasons[rumorID] == nil { hiddenReasons[rumorID] = reason }
    }

    /// Records that `member`'s invitation is complete if it holds its invitation role now, after
    /// announcing its join: called before anything changes its role, and at the end of the fold.
    mutating func noteCompletion(of member: PublicKey) {
        guard let invited = invitedRoles[member], status[member] != nil, awaitingJoin[member] == nil, role(of: member) == invited else {
            return
        }
        completed.insert(member)
    }

    /// How many members other than `key` are owners now.
    func owners(besides key: PublicKey) -> Int {
        table.filter { $0.key != key && $0.value == .owner && admins.contains($0.key) }.count
    }

    /// The same during the fold, at the point of the order reached (`adminBit`).
    func owners(besides key: PublicKey, epochAdmins: Set<PublicKey>) -> Int {
        table.filter { $0.key != key && $0.value == .owner && adminBit(of: $0.key, epochAdmins: epochAdmins) }.count
    }

    /// Whether the fold judges `key` a Marmot admin at the point of the order it has reached.
    /// Giving or taking the admin bit is a role change (`set-role`, `set-roles`, `invitation-role`,
    /// a snapshot) followed by its commit, so the table's order already holds every change of the
    /// bit: a member the table has a rank for is an admin exactly when that rank is owner or
    /// admin. Judging by today's list instead would refuse, retroactively and on every member, a
    /// change an admin made to a member promoted later; judging by the list a receiver held when
    /// the event arrived would differ per member (a late event is read with an old epoch's
    /// secrets after newer commits merged). Only members the table has no rank for (added without
    /// a role, or made admins by a bare commit outside the table) fall back to the entry's list.
    func adminBit(of key: PublicKey, epochAdmins: Set<PublicKey>) -> Bool {
        if let rank = table[key] { return rank.isMarmotAdmin }
        return epochAdmins.contains(key)
    }

    /// A member's effective role: the admin bit comes from the group data (MLS-enforced), the
    /// owner mark and the lower ranks from the table. `admin` overrides the bit (the fold's
    /// judgement at a point of the order); nil reads today's list.
    func role(of key: PublicKey, admin: Bool? = nil) -> Role {
        let entry = table[key]
        if admin ?? admins.contains(key) { return entry == .owner ? .owner : .admin }
        guard let entry, !entry.isMarmotAdmin else { return .member }
        return entry
    }
}
