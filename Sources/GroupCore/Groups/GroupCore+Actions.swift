import EngineInterface
import Nostr

extension GroupCore {
    /// Carries out a UI action; refusals become errors in state, never thrown.
    func perform(_ action: AppAction) async {
        guard session.started else {
            fail(CoreError(.notStarted, "\(action.traceText) before start"), chatID: nil)
            return
        }
        switch action {
        case .createChat(let peer):
            startCreation(peers: [peer], name: CoreConfiguration.directChatName, description: "", policy: .abort)
        case .createGroup(_, _, _, _, _, let roles) where !roles.isEmpty:
            // Invitation roles are the role hierarchy's (GroupCore+RoleBatches.swift).
            await performRoleAction(action, forged: false)
        case .addMembers(_, _, _, let roles) where !roles.isEmpty:
            await performRoleAction(action, forged: false)
        case .createGroup(let peers, let name, let description, let policy, let admins, _):
            startCreation(peers: peers, name: name, description: description, policy: policy, admins: admins)
        case .addMembers(let chatID, let peers, let policy, _):
            guard let chat = writableChat(chatID, needsAdmin: true) else { return }
            let fresh = Self.distinct(peers).filter { $0 != publicKey && !chat.members.contains($0) }
            guard !fresh.isEmpty else {
                fail(CoreError(.invalidAction, "every peer to add is already a member"), chatID: chatID)
                return
            }
            fetchKeyPackages(of: fresh, for: .add(chatID: chatID, policy: policy))
        case .decide(let decisionID, let choice):
            await decide(decisionID, choice)
        case .removeMembers(_, _, withMessages: true):
            await performRoleAction(action, forged: false)
        case .removeMembers(let chatID, let members, withMessages: false):
            // The admin requirement is the permission table's (role.removeNeedsAdmin), checked
            // with the rank rule in removalPermitted, so that the table says what the core does.
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let targets = Self.distinct(members).filter { chat.members.contains($0) && $0 != publicKey }
            guard !targets.isEmpty else {
                fail(CoreError(.invalidAction, "nobody to remove (not members, or ourselves)"), chatID: chatID)
                return
            }
            guard removalPermitted(of: targets, in: chat) else { return }
            await commit(.remove(targets), in: chat)
        case .rename(let chatID, let name):
            guard let chat = writableChat(chatID, needsAdmin: true) else { return }
            await commit(.rename(name), in: chat)
        case .updateDescription, .updateRelays, .rotateRouting, .selfUpdate, .disband:
            await performGroupDataAction(action)
        case .setImage(let chatID, let image):
            await setImage(image, in: chatID)
        case .leave(let chatID):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            membership.leaveRequested.insert(chatID)
            guard !chat.admins.contains(publicKey) else { return await stepDownAndLeave(chat, forged: false) }
            leaveRoute(chatID)
            await leave(chat)
        case .sendMessage(let chatID, let text):
            guard let chat = writableChat(chatID, needsAdmin: false), sendPermitted(in: chat) else { return }
            await sendMessage(text, in: chat)
        case .setRole, .deleteMessage, .block, .unblock, .publishRoleTable, .setPreferences, .react, .forged,
            .sendMedia, .startDirectMessage, .setRoles:
            await performRoleAction(action, forged: false)
        case .createGroupLink, .changeGroupLink, .deleteGroupLink, .admitJoin, .rejectJoin, .joinByLink, .deleteGroup:
            await performLinkAction(action, forged: false)
        case .openLink, .joinPrepared, .cancelPrepared:
            await performPreparedAction(action)
        case .acceptInvitation(let welcomeID):
            await answerInvitation(welcomeID, accept: true)
        case .declineInvitation(let welcomeID):
            await answerInvitation(welcomeID, accept: false)
        case .openChat(let chatID, let pageSize):
            guard chats[chatID] != nil else {
                fail(CoreError(.unknownChat, "no chat \(chatID)"), chatID: chatID)
                return
            }
            ui.currentChatID = chatID
            ui.routeChatID = chatID
            ui.openPage = OpenChatPage(size: pageSize)
            markRead(chatID)
            changed("open \(chatID.prefix(8))")
        case .loadOlderMessages(let chatID):
            loadOlderMessages(chatID)
        case .createChannel, .retryChannel, .testChannelRelays, .joinChannel, .retryJoinChannel, .broadcast, .leaveChannel, .deleteChannel:
            await performChannelAction(action)
        case .mute(let chatID):
            setMuted(chatID, true)
        case .unmute(let chatID):
            setMuted(chatID, false)
        case .shareHistory(let chatID, let member):
            await shareHistory(chatID, with: member, forged: false)
        case .markRead(let chatID):
            guard chats[chatID] != nil else {
                fail(CoreError(.unknownChat, "no chat \(chatID)"), chatID: chatID)
                return
            }
            markRead(chatID)
        }
    }

    /// 002: leaving, being removed from or deleting the chat the UI is in sends it back to the
    /// chat list, and closes the chat if it was open.
    func leaveRoute(_ chatID: String) {
        if ui.routeChatID == chatID { ui.routeChatID = nil }
        if ui.currentChatID == chatID { ui.currentChatID = nil }
    }

    private func startCreation(
        peers: [PublicKey], name: String, description: String, policy: PartialFailurePolicy, admins: [PublicKey] = []
    ) {
        let invitees = Self.distinct(peers).filter { $0 != publicKey }
        guard !invitees.isEmpty else {
            fail(CoreError(.invalidAction, "a chat needs at least one peer other than ourselves"), chatID: nil)
            return
        }
        fetchKeyPackages(of: invitees, for: .create(name: name, description: description, policy: policy, admins: admins))
    }

    /// The chat if it exists, we are still in it, no commit of ours is in flight, and (when asked)
    /// we are an admin; otherwise records why not.
    func writableChat(_ chatID: String, needsAdmin: Bool) -> ChatRecord? {
        guard let chat = chats[chatID] else {
            fail(CoreError(.unknownChat, "no chat \(chatID)"), chatID: chatID)
            return nil
        }
        guard !chat.isRemoved else {
            fail(CoreError(.chatRemoved, "we are no longer a member of \(chatID.prefix(8))"), chatID: chatID)
            return nil
        }
        guard roleView(of: chat).deletion == nil else {
            fail(CoreError(.chatDeleted, "an owner deleted \(chatID.prefix(8))"), chatID: chatID)
            return nil
        }
        guard !commits.isPending(in: chatID) else {
            fail(CoreError(.busy, "a commit of ours is waiting for its relays in \(chatID.prefix(8))"), chatID: chatID)
            return nil
        }
        guard !needsAdmin || chat.admins.contains(publicKey) else {
            fail(CoreError(.notAdmin, "only admins may change \(chatID.prefix(8))"), chatID: chatID)
            return nil
        }
        return chat
    }

    private func markRead(_ chatID: String) {
        guard chats[chatID]?.unread != 0 else { return }
        chats[chatID]?.unread = 0
        chats[chatID]?.unreadIDs = nil
        changed("read \(chatID.prefix(8))")
    }

    static func distinct(_ keys: [PublicKey]) -> [PublicKey] {
        var seen: Set<PublicKey> = []
        return keys.filter { seen.insert($0).inserted }
    }

    /// MIP-01: the creator's group is merged at once and nothing but the welcomes is published.
    func createGroup(
        name: String, description: String, admins: [PublicKey], invitees: [(PublicKey, Event)], failed: [FailedPeer]
    ) async {
        let joining = Set(invitees.map(\.0))
        let admins = [publicKey] + Self.distinct(admins).filter(joining.contains)
        // Invitees whose welcomes would not fit the path follow in add commits (GroupCore+Invitations).
        let (invitees, later) = creationInvitees(invitees, name: name, description: description, admins: admins.count)
        let first = Set(invitees.map(\.0))
        let request = GroupCreation(
            creator: publicKey, keyPackages: invitees.map(\.1), name: name, description: description,
            relays: configuration.groupRelays, admins: admins.filter { $0 == publicKey || first.contains($0) }
        )
        do {
            let created = try await engine.createGroup(request)
            await adopt(created.group)
            let chatID = created.group.nostrGroupID
            chats[chatID]?.roles.creator = publicKey
            // 002: the user's own creation takes the UI to the new chat (the UI opens it).
            ui.routeChatID = chatID
            await sendRoleSnapshot(chatID)
            await announceInvitationRoles(in: chatID)
            record(failed, chatID: chatID)
            note("created \(chatID.prefix(8)) at epoch \(created.group.epoch)")
            sendWelcomes(zip(created.welcomeRumors, invitees.map(\.0)).map { WelcomeRumor(rumor: $0, invitee: $1) })
            queueInvitations(later, in: chatID)
            await continueInvitations(in: chatID)
        } catch {
            record(failed, chatID: nil)
            fail(error, during: "creating the group", chatID: nil)
        }
    }

    func addMembers(_ invitees: [(PublicKey, Event)], to chatID: String) async {
        guard let chat = writableChat(chatID, needsAdmin: true) else { return }
        await commit(.add(invitees.map(\.1)), in: chat)
    }

    /// The `created_at` of our next chat message: now, or one second after our newest message
    /// if that is not earlier (seed 000, "Risk Areas" 4: a member's own messages keep a monotonic
    /// timestamp, so a burst written within one second shows, notifies and is sent in the order
    /// written, for everyone, since views order by created_at). Derived from the messages we hold,
    /// so a restarted core, which reads them back, keeps counting from where it stopped.
    ///
    /// Never more than `maximumOwnMessageLead` ahead of the clock: a burst faster than one message
    /// a second would otherwise run ahead without bound, and receivers refuse a kind 445 more than
    /// 300 s in the future (MDK 0.8.0 and our engine, MIP-03): 1,000 messages at ten a second left
    /// every MDK member unable to read the sender after ~300 of them (an engine stamping from its
    /// clock, MDK through the world shim, dates the wrapper at this instant too). Past the lead,
    /// messages share that second and the views order them by id.
    func nextOwnMessageInstant() -> UInt64 {
        let newest = chats.values.lazy.flatMap { $0.messages.lazy.filter(\.isMine).map(\.timestamp) }.max()
        return Self.ownMessageInstant(now: now, newestOwn: newest)
    }

    /// The rule of `nextOwnMessageInstant`: one second after `newestOwn`, at least `now`, at most
    /// `now + maximumOwnMessageLead`.
    static func ownMessageInstant(now: UInt64, newestOwn: UInt64?) -> UInt64 {
        min(max(now, newestOwn.map { $0 + 1 } ?? 0), now + maximumOwnMessageLead)
    }

    /// How far ahead of the clock our own messages' monotonic `created_at` may run (seconds): well
    /// inside the 300 s receivers allow, leaving the rest for clock skew between devices.
    static let maximumOwnMessageLead: UInt64 = 60

    func sendMessage(_ text: String, in chat: ChatRecord, media: MediaAttachment? = nil) async {
        do {
            let event = try await engine.createMessage(
                in: chat.mlsGroupID, sender: publicKey, kind: .chatMessage, content: text,
                tags: [[ControlMessage.atTag, String(now), String(makeNumber())]] + [media?.tag].compactMap { $0 },
                createdAt: nextOwnMessageInstant())
            // The engine stamps the inner rumor; its id and time come back with the stored copy.
            let stored = try await engine.messages(in: chat.mlsGroupID).first { $0.wrapperID == event.id }
            let rumorID = stored?.rumor.id.hex ?? event.id.hex
            let message = ChatMessage(
                id: rumorID, senderPubkey: publicKey, senderName: configuration.profileName, content: text,
                timestamp: stored?.rumor.createdAt ?? event.createdAt, isMine: true, delivery: .pending
            )
            _ = chats[chat.chatID]?.insert(message)
            if let stored { recordChatMessage(eventID: event.id.hex, rumor: stored.rumor, sender: publicKey, in: chat.chatID) }
            changed("sent \(rumorID.prefix(8))")
            traffic.publishes[event.id.hex] = .message(chatID: chat.chatID, messageID: rumorID, outstanding: Set(chat.relays))
            traffic.outbox.track(event, relays: chat.relays)
            publishSigned(event, to: chat.relays)
        } catch {
            fail(error, during: "sending a message", chatID: chat.chatID)
        }
    }
}
