// Member-action steps: the typed MemberAction a step carries becomes the GroupCore AppAction its
// member dispatches. Labels, chat and channel names and message texts are resolved here, against
// the world as it is when the step runs; every other field was typed when the file loaded.
import EngineInterface
import GroupCore
import Nostr
import ScenarioModel
import Simulation

extension StepInterpreter {
    /// The app action a member step dispatches (wrapped as forged when the step says so).
    func appAction(for step: MemberStep) async throws -> AppAction {
        // An add has no permission of ours to skip (the engine checks the admin bit); forging
        // one means forging the role it invites with.
        if step.forged, case .addMembers(_, _, _, nil) = step.action {
            throw StepFailure(message: "a forged add-members needs a role (what the modified client skips is its role check)")
        }
        let action = try await honestAction(step.action, by: step.by)
        return step.forged ? .forged(action) : action
    }

    private func honestAction(_ action: MemberAction, by: String) async throws -> AppAction {
        switch action {
        case .createGroup(let with, let name, let description, let onPartialFailure, let admins, let role):
            let peers = try keys(with)
            let admins = try keys(admins)
            return .createGroup(
                peers: peers, name: name, description: description, onPartialFailure: PartialFailurePolicy(onPartialFailure),
                admins: admins,
                roles: role.map { role in peers.filter { !admins.contains($0) }.map { RoleAssignment(member: $0, role: Role(role)) } } ?? []
            )
        case .createChat(let with): return .createChat(peer: try key(with))
        case .addMembers(let members, let group, let onPartialFailure, let role):
            let chatID = try await chat(of: by, named: group)
            let peers = try keys(members)
            if role != nil, onPartialFailure != .proceed {
                throw StepFailure(message: "add-members with a role runs under on-partial-failure: continue")
            }
            return .addMembers(
                chatID: chatID, peers: peers, onPartialFailure: PartialFailurePolicy(onPartialFailure),
                roles: role.map { role in peers.map { RoleAssignment(member: $0, role: Role(role)) } } ?? [])
        case .decide(let answer):
            guard let decision = await world.member(by)?.core.state().pendingDecisions.first else {
                throw StepFailure(message: "\(by) has no pending decision to answer")
            }
            return .decide(decisionID: decision.id, choice: DecisionChoice(answer))
        case .removeMembers(let members, let group, let withMessages):
            let chatID = try await chat(of: by, named: group)
            let members = try keys(members)
            return .removeMembers(chatID: chatID, members: members, withMessages: withMessages)
        case .leave(let group): return .leave(chatID: try await chat(of: by, named: group))
        case .rename(let to, let group): return .rename(chatID: try await chat(of: by, named: group), name: to)
        case .send(let text, let group): return .sendMessage(chatID: try await chat(of: by, named: group), text: text)
        case .sendMany:
            throw StepFailure(message: "send-many is a step of its own (not in a parallel step)")
        case .mute(let group): return .mute(chatID: try await chat(of: by, named: group))
        case .openLink(let name, let text):
            if let text { return .openLink(text: text) }
            guard let name, let link = links[name] else { throw StepFailure(message: "step '\(name ?? "")' made no link") }
            return .openLink(text: link.text)
        case .joinPrepared(let group): return .joinPrepared(token: try await prepared(of: by, named: group))
        case .cancelPrepared(let group): return .cancelPrepared(token: try await prepared(of: by, named: group))
        case .acceptInvite(let group): return .acceptInvitation(welcomeID: try await invitation(of: by, named: group))
        case .declineInvite(let group): return .declineInvitation(welcomeID: try await invitation(of: by, named: group))
        case .unmute(let group): return .unmute(chatID: try await chat(of: by, named: group))
        case .openChat(let pageSize, let group):
            return .openChat(chatID: try await chat(of: by, named: group), pageSize: pageSize ?? ChatViewState.defaultPageSize)
        case .loadOlder(let group): return .loadOlderMessages(chatID: try await chat(of: by, named: group))
        case .describe(let text, let group): return .updateDescription(chatID: try await chat(of: by, named: group), description: text)
        case .setImage(let image, let mimeType, let group):
            return .setImage(chatID: try await chat(of: by, named: group), image: ImageFile(bytes: image, mimeType: mimeType))
        case .rotateRouting(let group):
            return .rotateRouting(chatID: try await chat(of: by, named: group))
        case .disband(let group):
            return .disband(chatID: try await chat(of: by, named: group))
        case .setRelays(let relays, let group):
            return .updateRelays(chatID: try await chat(of: by, named: group), relays: relays.map(WorldConfiguration.url(of:)))
        case .selfUpdate(let group): return .selfUpdate(chatID: try await chat(of: by, named: group))
        case .createChannel(let relays, let name, let description, let welcome, let owners):
            return .createChannel(
                relays: try keys(relays), name: name, description: description, welcomeMessage: welcome, coOwners: try keys(owners))
        case .retryChannel(let name): return .retryChannel(channelID: try await channel(of: by, named: name).channelID)
        case .testRelays(let name): return .testChannelRelays(channelID: try await channel(of: by, named: name).channelID)
        case .retryJoin(let name): return .retryJoinChannel(channelID: try await channel(of: by, named: name).channelID)
        case .broadcast(let text, let name): return .broadcast(channelID: try await channel(of: by, named: name).channelID, text: text)
        case .leaveChannel(let name): return .leaveChannel(channelID: try await channel(of: by, named: name).channelID)
        case .deleteChannel(let name): return .deleteChannel(channelID: try await channel(of: by, named: name).channelID)
        case .joinChannel(let name, let owner):
            let channel = try await channel(of: owner, named: name)
            guard let link = channel.link else {
                throw StepFailure(message: "\(owner)'s channel '\(channel.name)' has no link yet (no relay active)")
            }
            return .joinChannel(link)
        case .setRole(let member, let role, let group):
            let member = try key(member)
            return .setRole(chatID: try await chat(of: by, named: group), member: member, role: Role(role))
        case .setRoles(let members, let role, let group):
            let chatID = try await chat(of: by, named: group)
            return .setRoles(chatID: chatID, roles: try keys(members).map { RoleAssignment(member: $0, role: Role(role)) })
        case .block(let member, let group):
            let chatID = try await chat(of: by, named: group)
            return .block(chatID: chatID, member: try key(member))
        case .unblock(let member, let group):
            let chatID = try await chat(of: by, named: group)
            return .unblock(chatID: chatID, member: try key(member))
        case .createLink(let role, let approval, let group):
            return .createGroupLink(chatID: try await chat(of: by, named: group), role: Role(role), approval: approval)
        case .changeLink(let role, let group): return .changeGroupLink(chatID: try await chat(of: by, named: group), role: Role(role))
        case .deleteLink(let group): return .deleteGroupLink(chatID: try await chat(of: by, named: group))
        case .joinByLink(let name):
            guard let link = links[name] else { throw StepFailure(message: "step '\(name)' made no link") }
            return .joinByLink(admin: link.admin, token: link.token)
        case .acceptJoin(let member, let role, let group):
            return .admitJoin(chatID: try await chat(of: by, named: group), requester: try key(member), role: Role(role))
        case .rejectJoin(let member, let group):
            return .rejectJoin(chatID: try await chat(of: by, named: group), requester: try key(member))
        case .deleteGroup(let keepHistory, let notify, let group):
            return .deleteGroup(chatID: try await chat(of: by, named: group), keepHistory: keepHistory, notify: notify)
        case .shareHistory(let member, let group):
            return .shareHistory(chatID: try await chat(of: by, named: group), member: try key(member))
        case .setPreferences(let changes, let group):
            var preferences = GroupPreferences()
            if let value = changes.reactions { preferences.reactions = value }
            if let value = changes.fullDeletion { preferences.fullDeletion = value }
            if let value = changes.disappearAfter { preferences.disappearAfterSeconds = UInt64(value.milliseconds / 1_000) }
            if let value = changes.historyForNewMembers { preferences.historyForNewMembers = value }
            if let value = changes.welcome { preferences.welcomeMessage = value }
            if let value = changes.voiceMessages { preferences.voiceMessages = value }
            if let value = changes.files { preferences.files = value }
            if let value = changes.directMessages { preferences.directMessages = value }
            return .setPreferences(chatID: try await chat(of: by, named: group), preferences: preferences)
        case .sendMedia(let text, let kind, let group):
            // A stable reference per text: the outcome shows the text, the tag says the kind.
            let media =
                kind == .voice
                ? MediaAttachment(url: "https://media.invalid/\(text.utf8.count).ogg", mimeType: "audio/ogg")
                : MediaAttachment(url: "https://media.invalid/\(text.utf8.count).pdf", mimeType: "application/pdf", filename: "\(text).pdf")
            return .sendMedia(chatID: try await chat(of: by, named: group), text: text, media: media)
        case .startDirectMessage(let member, let group):
            return .startDirectMessage(chatID: try await chat(of: by, named: group), member: try key(member))
        case .react(let text, let emoji, let group):
            let chatID = try await chat(of: by, named: group)
            return .react(chatID: chatID, messageID: try await messageID(of: by, chatID: chatID, text: text), emoji: emoji)
        case .publishRoles(let group): return .publishRoleTable(chatID: try await chat(of: by, named: group))
        case .deleteMessage(let text, let group):
            let chatID = try await chat(of: by, named: group)
            return .deleteMessage(chatID: chatID, messageID: try await messageID(of: by, chatID: chatID, text: text))
        }
    }

    /// Remembers the link a `create-link` step made, for later `join-by-link` steps naming it.
    mutating func noteLink(made name: String, by label: String) async {
        guard let member = world.member(label),
            let link = await member.core.state().chatList.compactMap(\.link).first(where: { $0.admin == member.publicKey })
        else { return }
        guard let chatID = await member.core.state().chatList.first(where: { $0.link?.token == link.token })?.chatID,
            let text = await member.core.shareableLink(of: chatID)
        else { return }
        links[name] = (link.admin, link.token, text)
    }

    func key(_ label: String) throws -> PublicKey {
        guard let key = world.member(label)?.publicKey else { throw StepFailure(message: "no member '\(label)'") }
        return key
    }

    func keys(_ labels: [String]) throws -> [PublicKey] {
        try labels.map(key)
    }

    /// The chat a member acts on: the one named by `group`, else its only active chat.
    func chat(of label: String, named group: String?) async throws -> String {
        guard let core = world.member(label)?.core else { throw StepFailure(message: "no member '\(label)'") }
        let all = await core.state().chatList
        let chats = all.filter { !$0.isRemoved }
        if let group {
            // A named chat may be one we left: acting on it is how a scenario shows the refusal.
            guard let chat = chats.first(where: { $0.groupName == group }) ?? all.first(where: { $0.groupName == group }) else {
                throw StepFailure(message: "\(label) has no chat named '\(group)' (has: \(chats.map(\.groupName)))")
            }
            return chat.chatID
        }
        guard chats.count == 1 else {
            throw StepFailure(message: "\(label) has \(chats.count) active chats; name one with 'group:'")
        }
        return chats[0].chatID
    }

    /// The link token of the prepared group a member acts on: the one named `group`, else its only one.
    func prepared(of label: String, named group: String?) async throws -> String {
        try await theOne("prepared group", of: label, named: group, in: { $0.preparedGroups }, name: { $0.name ?? "unnamed" }).token
    }

    /// The welcome id of the invitation a member answers: the one to the group named `group`, else
    /// its only one.
    func invitation(of label: String, named group: String?) async throws -> String {
        try await theOne("invitation", of: label, named: group, in: { $0.invitations }, name: \.groupName).welcomeID
    }

    /// The one item of a member's state list a step acts on: the one whose name is `group`, else the
    /// list's only item; any other count fails the step, listing the names there are.
    private func theOne<Item>(
        _ what: String, of label: String, named group: String?, in list: (AppState) -> [Item]?, name: (Item) -> String
    ) async throws -> Item {
        guard let core = world.member(label)?.core else { throw StepFailure(message: "no member '\(label)'") }
        let items = list(await core.state()) ?? []
        let matching = group.map { wanted in items.filter { name($0) == wanted } } ?? items
        guard matching.count == 1 else {
            throw StepFailure(
                message: "\(label) has \(matching.count) \(what)(s)\(group.map { " named '\($0)'" } ?? "") (has: \(items.map(name)))")
        }
        return matching[0]
    }

    /// The channel a member acts on: the one named `name`, else its only channel.
    func channel(of label: String, named name: String?) async throws -> ChannelState {
        guard let core = world.member(label)?.core else { throw StepFailure(message: "no member '\(label)'") }
        let channels = await core.state().channels
        if let name {
            guard let channel = channels.first(where: { $0.name == name }) else {
                throw StepFailure(message: "\(label) has no channel named '\(name)' (has: \(channels.map(\.name)))")
            }
            return channel
        }
        guard channels.count == 1 else { throw StepFailure(message: "\(label) has \(channels.count) channels; name one with 'channel:'") }
        return channels[0]
    }

    /// The rumor id of the chat message with `text` as `label`'s engine stored it.
    func messageID(of label: String, chatID: String, text: String) async throws -> String {
        guard let engine = world.member(label)?.engine,
            let group = try await engine.groups().first(where: { $0.nostrGroupID == chatID })
        else { throw StepFailure(message: "\(label) has no group \(chatID.prefix(8))") }
        let matches = try await engine.messages(in: group.mlsGroupID).filter { $0.rumor.kind == .chatMessage && $0.rumor.content == text }
        guard matches.count == 1 else { throw StepFailure(message: "\(label) has \(matches.count) messages '\(text)', needs exactly one") }
        return matches[0].rumor.id.hex
    }
}

extension Role {
    /// The app core's role for a role a scenario names (ModelMappingTests: the two lists agree).
    init(_ name: RoleName) {
        switch name {
        case .owner: self = .owner
        case .admin: self = .admin
        case .moderator: self = .moderator
        case .member: self = .member
        case .relay: self = .relay
        case .observer: self = .observer
        }
    }
}

extension PartialFailurePolicy {
    init(_ choice: PartialFailureChoice) {
        switch choice {
        case .proceed: self = .proceed
        case .abort: self = .abort
        case .ask: self = .ask
        }
    }
}

extension DecisionChoice {
    init(_ answer: DecisionAnswer) {
        switch answer {
        case .retry: self = .retry
        case .proceed: self = .proceed
        case .cancel: self = .cancel
        }
    }
}

extension CoreConfiguration.Behaviour.OwnCommitMerge {
    /// The app core's merge behaviour for the one a scenario member names.
    init(_ name: OwnCommitMergeName) {
        switch name {
        case .asReceived: self = .asReceived
        case .plain: self = .plain
        }
    }
}

extension UpdatePerturbation {
    init(_ name: UpdateDeliveryName) {
        switch name {
        case .duplicate: self = .duplicate
        case .reorder: self = .reorder
        case .drop: self = .drop
        }
    }
}

extension ChatRelayConduct {
    /// The app core's forwarding conduct for the one a scenario's chat relay names.
    init(_ name: ChatRelayConductName) {
        switch name {
        case .honest: self = .honest
        case .alters: self = .alters
        case .forges: self = .forges
        }
    }
}
