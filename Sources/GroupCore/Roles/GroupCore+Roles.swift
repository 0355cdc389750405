import EngineInterface
import Nostr

// The role hierarchy in GroupCore: sender-side checks and control messages out, control messages
// and chat messages into each chat's RoleBook in. Both sides ask `PermissionTable` and nothing else.
extension GroupCore {
    /// Checks disabled by the mutation test (never in shipped configurations).
    var disabledPermissionChecks: Set<PermissionCheck> { configuration.behaviour.disabledPermissionChecks }

    func roleView(of chat: ChatRecord) -> RoleView {
        chat.roles.view(
            admins: chat.admins, disabled: disabledPermissionChecks, now: now,
            hidesAfterDeletion: configuration.behaviour.recovery.dropsAfterDeletion)
    }

    /// The sender-side check: a refusal becomes an error whose code is the check's reason.
    func permitted(_ request: PermissionRequest, in chatID: String) -> Bool {
        guard let check = PermissionTable.refusal(request, disabled: disabledPermissionChecks) else { return true }
        fail(CoreError(CoreError.Code(check.reason), "\(request.action.rawValue) refused to a \(request.actor.rawValue)"), chatID: chatID)
        return false
    }

    func sendPermitted(in chat: ChatRecord) -> Bool {
        permitted(PermissionRequest(actor: roleView(of: chat).role(of: publicKey), action: .send), in: chat.chatID)
    }

    /// Admins remove only lower ranks (owners anyone); the engine checks the admin bit itself.
    func removalPermitted(of targets: [PublicKey], in chat: ChatRecord) -> Bool {
        let view = roleView(of: chat)
        let actor = view.role(of: publicKey)
        return targets.allSatisfy {
            permitted(PermissionRequest(actor: actor, action: .removeMember, target: view.role(of: $0)), in: chat.chatID)
        }
    }

    /// Role actions, and any action as a modified client that skips its own checks would send it.
    func performRoleAction(_ action: AppAction, forged: Bool) async {
        switch action {
        case .forged(let inner):
            await performForged(inner)
        case .setRole(let chatID, let member, let role):
            guard let chat = writableChat(chatID, needsAdmin: false), let view = roleTarget(member, in: chat) else { return }
            let request = PermissionRequest(
                actor: view.role(of: publicKey), action: .setRole, target: view.role(of: member), newRole: role)
            guard forged || permitted(request, in: chatID) else { return }
            await sendControl(.setRole(target: member, role: role), in: chat)
            // Owners and admins must also be (or stop being) Marmot admins: a group-data commit. A
            // forged change stops at the control message: receivers judge that; a commit by a
            // Marmot admin would be accepted by every engine (MIP-03 knows no ranks).
            guard !forged, role.isMarmotAdmin != chat.admins.contains(member) else { return }
            await commit(
                .admins(adding: role.isMarmotAdmin ? [member] : [], removing: role.isMarmotAdmin ? [] : [member], label: "admins"),
                in: chat)
        case .deleteMessage(let chatID, let messageID):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            guard let author = chat.messages.first(where: { $0.id == messageID })?.senderPubkey else {
                fail(CoreError(.invalidAction, "no message \(messageID.prefix(8)) in \(chatID.prefix(8))"), chatID: chatID)
                return
            }
            let view = roleView(of: chat)
            let request = PermissionRequest(
                actor: view.role(of: publicKey), action: .deleteMessage, target: view.role(of: author), ownTarget: author == publicKey,
                preferences: view.preferences ?? GroupPreferences())
            guard forged || permitted(request, in: chatID) else { return }
            await sendControl(.delete(messageID: messageID), in: chat)
        case .block(let chatID, let member), .unblock(let chatID, let member):
            guard let chat = writableChat(chatID, needsAdmin: false), let view = roleTarget(member, in: chat) else { return }
            let blocking = if case .block = action { true } else { false }
            let request = PermissionRequest(
                actor: view.role(of: publicKey), action: blocking ? .block : .unblock, target: view.role(of: member))
            guard forged || permitted(request, in: chatID) else { return }
            await sendControl(blocking ? .block(member) : .unblock(member), in: chat)
        case .removeMembers(let chatID, let members, withMessages: true):
            guard let chat = writableChat(chatID, needsAdmin: !forged) else { return }
            let view = roleView(of: chat)
            let targets = Self.distinct(members).filter { chat.members.contains($0) && $0 != publicKey }
            guard !targets.isEmpty else {
                fail(CoreError(.invalidAction, "nobody to remove (not members, or ourselves)"), chatID: chatID)
                return
            }
            for target in targets {
                let request = PermissionRequest(actor: view.role(of: publicKey), action: .purge, target: view.role(of: target))
                guard forged || permitted(request, in: chatID) else { return }
            }
            // Messages first, while the targets are still members; then the removal commit.
            for target in targets { await sendControl(.purge(target), in: chat) }
            await commit(.remove(targets), in: chat)
        case .setPreferences(let chatID, let preferences):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let request = PermissionRequest(actor: roleView(of: chat).role(of: publicKey), action: .setPreferences)
            guard forged || permitted(request, in: chatID) else { return }
            await sendControl(.preferences(preferences), in: chat)
        case .react(let chatID, let messageID, let emoji):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let view = roleView(of: chat)
            let request = PermissionRequest(
                actor: view.role(of: publicKey), action: .react, preferences: view.preferences ?? GroupPreferences())
            guard forged || permitted(request, in: chatID) else { return }
            await sendReaction(emoji, to: messageID, in: chat)
        case .sendMedia, .startDirectMessage:
            await performPreferenceAction(action, forged: forged)
        case .setRoles:
            await performRoleBatch(action, forged: forged)
        case .createGroup(_, _, _, _, _, let roles) where !roles.isEmpty:
            await performRoleBatch(action, forged: forged)
        case .addMembers(_, _, _, let roles) where !roles.isEmpty:
            await performRoleBatch(action, forged: forged)
        case .publishRoleTable(let chatID):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let request = PermissionRequest(actor: roleView(of: chat).role(of: publicKey), action: .snapshot)
            guard forged || permitted(request, in: chatID) else { return }
            // A forged table is a member claiming ownership for itself.
            await sendRoleSnapshot(chatID, claimingOwnership: forged)
        default:
            await perform(action)
        }
    }

    /// What a client without sender-side role checks does (the receivers' checks must hold).
    private func performForged(_ action: AppAction) async {
        switch action {
        case .sendMessage(let chatID, let text):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            await sendMessage(text, in: chat)
        case .removeMembers(let chatID, let members, withMessages: false):
            // The engine still refuses a non-admin's commit (MIP-03); only the rank check is skipped.
            guard let chat = writableChat(chatID, needsAdmin: true) else { return }
            await commit(.remove(members.filter { chat.members.contains($0) && $0 != publicKey }), in: chat)
        case .createGroup(_, _, _, _, _, let roles) where !roles.isEmpty:
            await performRoleAction(action, forged: true)
        case .addMembers(_, _, _, let roles) where !roles.isEmpty:
            await performRoleAction(action, forged: true)
        case .setRole, .deleteMessage, .block, .unblock, .publishRoleTable, .removeMembers(_, _, withMessages: true), .setPreferences,
            .react, .sendMedia, .startDirectMessage, .setRoles:
            await performRoleAction(action, forged: true)
        case .shareHistory(let chatID, let member):
            await shareHistory(chatID, with: member, forged: true)
        case .leave(let chatID):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            await stepDownAndLeave(chat, forged: true)
        default:
            await performLinkAction(action, forged: true)
        }
    }

    /// MIP-03/MDK: an admin cannot leave; it first leaves `admin_pubkeys` (and says so in the
    /// table), then proposes to leave once that commit is merged. The last owner is refused.
    func stepDownAndLeave(_ chat: ChatRecord, forged: Bool) async {
        let view = roleView(of: chat)
        let request = PermissionRequest(
            actor: view.role(of: publicKey), action: .leave, ownTarget: true, otherOwners: view.owners(besides: publicKey))
        guard forged || permitted(request, in: chat.chatID) else { return }
        await sendControl(.setRole(target: publicKey, role: .member), in: chat)
        // A forged step-down stops at the control message (receivers judge it); leaving would
        // strand the group without its owner.
        guard !forged else { return }
        leaveRoute(chat.chatID)
        membership.leavingAfterStepDown.insert(chat.chatID)
        await commit(.admins(adding: [], removing: [publicKey], label: "step down"), in: chat)
        // Neither in flight nor waiting for the epoch to settle: the step-down failed.
        if commits.isIdle(in: chat.chatID) { membership.leavingAfterStepDown.remove(chat.chatID) }
    }

    /// After one of our commits is merged: joiners get the table; a stepped-down admin leaves.
    func afterMerge(chatID: String, welcomed: Bool, label: String) async {
        if welcomed {
            await sendRoleSnapshot(chatID)
            await announceInvitationRoles(in: chatID)
        }
        // Our post-join self-update completes the join (MIP-02): announce it once.
        if label == CommitChange.selfUpdate.label, let chat = chats[chatID], !chat.isRemoved, chat.roles.creator == nil,
            !chat.roles.hasAnnouncedJoin(publicKey)
        {
            await sendControl(.joined, in: chat)
            // The snapshot was sent in our first epoch; if it has not come by now it may never be
            // readable (MLS keeps no old epoch secrets): ask for the table again.
            if let chat = chats[chatID], !roleView(of: chat).known { await sendControl(.tableRequest, in: chat) }
        }
        if membership.leavingAfterStepDown.remove(chatID) != nil, let chat = chats[chatID], !chat.admins.contains(publicKey) {
            await leave(chat)
        }
    }

    func roleTarget(_ member: PublicKey, in chat: ChatRecord) -> RoleView? {
        guard chat.members.contains(member), member != publicKey else {
            fail(
                CoreError(.invalidAction, "\(member.hex.prefix(8)) is not another member of \(chat.chatID.prefix(8))"), chatID: chat.chatID)
            return nil
        }
        return roleView(of: chat)
    }

    /// Encrypts a control message to the group and records it in our own book (our own events
    /// never come back through the engine).
    func sendControl(_ body: ControlMessage.Body, in chat: ChatRecord) async {
        let control = ControlMessage(body, at: now, seq: makeNumber())
        do {
            let event = try await engine.createMessage(
                in: chat.mlsGroupID, sender: publicKey, kind: ControlMessage.kind, content: control.json(), tags: [])
            let stored = try await engine.messages(in: chat.mlsGroupID).first { $0.wrapperID == event.id }
            chats[chat.chatID]?.roles.add(
                RoleEntry(
                    eventID: event.id.hex, rumorID: stored?.rumor.id.hex ?? event.id.hex, actor: publicKey,
                    admins: Set(chat.admins), at: now, seq: control.seq, content: .control(body)))
            changed("control \(event.id.hex.prefix(8)) in \(chat.chatID.prefix(8))")
            if configuration.behaviour.recovery.controlOutbox {
                // Like a chat message: made while our relays are unreachable (a partition), it
                // waits in the outbox and goes out when they are back, so that the change reaches
                // everyone instead of existing on our side only.
                traffic.publishes[event.id.hex] = .control(chatID: chat.chatID, outstanding: Set(chat.relays))
                traffic.outbox.track(event, relays: chat.relays)
            }
            publishSigned(event, to: chat.relays)
        } catch {
            fail(error, during: "sending a control message", chatID: chat.chatID)
        }
    }

    /// The table for joiners, sent in their first epoch by the admin whose commit added them.
    func sendRoleSnapshot(_ chatID: String, claimingOwnership: Bool = false) async {
        guard let chat = chats[chatID], !chat.isRemoved else { return }
        let view = roleView(of: chat)
        guard view.known else {
            note("no role table to send in \(chatID.prefix(8)) yet")
            return
        }
        var roles: [PublicKey: Role] = [:]
        for member in chat.members { roles[member] = view.role(of: member) }
        if claimingOwnership { roles[publicKey] = .owner }
        await sendControl(
            .snapshot(
                roles: roles, blocked: view.blocked.intersection(chat.members), link: view.link, preferences: view.preferences,
                status: view.status.filter { chat.members.contains($0.key) }),
            in: chat)
    }

    /// An application message of kind 4450 from the group: decoded, then judged by the fold.
    func receiveControl(_ received: ReceivedMessage, in chatID: String) async {
        guard chats[chatID] != nil else { return }
        let control: ControlMessage
        do {
            control = try ControlMessage(json: received.rumor.content)
        } catch {
            ui.rejections.append(
                Rejection(
                    eventID: received.wrapperID.hex, kind: .groupEvent, reason: error.code.name, detail: error.reason))
            changed("rejection \(error.code.name)")
            return
        }
        let admins = Set(chats[chatID]?.admins ?? [])
        chats[chatID]?.roles.add(
            RoleEntry(
                eventID: received.wrapperID.hex, rumorID: received.rumor.id.hex, actor: received.sender, admins: admins,
                at: control.at, seq: control.seq, content: .control(control.body)))
        changed("control \(received.rumor.id.hex.prefix(8)) in \(chatID.prefix(8))")
        if case .deleteGroup = control.body { tellDeletion(in: chatID) }
        // One admin answers (the first in the group data, as for proposals), so joiners do not
        // get a snapshot from every admin.
        if case .tableRequest = control.body, let chat = chats[chatID], chat.admins.first == publicKey {
            await sendRoleSnapshot(chatID)
        }
        if case .joined = control.body { await joinedWithInvitationRole(received.sender, in: chatID) }
    }

    /// NIP-25 reaction as an application message: kind 7, `e` names the message.
    private func sendReaction(_ emoji: String, to messageID: String, in chat: ChatRecord) async {
        do {
            let event = try await engine.createMessage(
                in: chat.mlsGroupID, sender: publicKey, kind: Self.reactionKind, content: emoji,
                tags: [["e", messageID], [ControlMessage.atTag, String(now), String(makeNumber())]])
            if let stored = try await engine.messages(in: chat.mlsGroupID).first(where: { $0.wrapperID == event.id }) {
                recordChatMessage(eventID: event.id.hex, rumor: stored.rumor, sender: publicKey, in: chat.chatID)
            }
            changed("reaction \(event.id.hex.prefix(8))")
            publishSigned(event, to: chat.relays)
        } catch {
            fail(error, during: "reacting", chatID: chat.chatID)
        }
    }

    static let reactionKind: Kind = 7

    /// With disappearing messages on, our view must be refreshed when a message expires even if
    /// nothing else arrives: a timer per message.
    func scheduleExpiry(at: UInt64, in chatID: String) {
        guard let chat = chats[chatID], let seconds = roleView(of: chat).preferences?.disappearAfterSeconds, seconds > 0 else { return }
        let due = at + seconds
        _ = startTimer(.roleRefresh(chatID: chatID), milliseconds: due > now ? (due - now) * 1_000 : 0)
    }

    /// A chat message enters the book too: whether it is shown depends on its sender's role then.
    func recordChatMessage(eventID: String, rumor: UnsignedEvent, sender: PublicKey, in chatID: String) {
        let tag = rumor.tags.first { $0.count > 1 && $0[0] == ControlMessage.atTag }
        let stated = tag.flatMap { UInt64($0[1]) }
        let seq = tag.flatMap { $0.count > 2 ? UInt64($0[2]) : nil } ?? 0
        let admins = Set(chats[chatID]?.admins ?? [])
        chats[chatID]?.roles.add(
            RoleEntry(
                eventID: eventID, rumorID: rumor.id.hex, actor: sender, admins: admins, at: stated ?? rumor.createdAt, seq: seq,
                content: rumor.kind == Self.reactionKind ? .reaction : MediaAttachment.kind(of: rumor.tags).map { .media($0) } ?? .message))
        scheduleExpiry(at: stated ?? rumor.createdAt, in: chatID)
    }

    /// Role rejections of every chat, derived afresh (a late authorizing change withdraws one).
    func roleRejections() -> [Rejection] {
        chats.keys.sorted().flatMap { id in chats[id].map { roleView(of: $0).rejections } ?? [] }
    }
}
