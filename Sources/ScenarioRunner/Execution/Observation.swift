// What each member ended up with, as an engine-independent Outcome: members are named by label,
// never by key, and nothing random (ids, timestamps, MLS group ids) is kept. Members are read
// only through `MemberReads`. Which fields exist, which a vector stores and when each is present
// is `OutcomeSchema`'s table; every map here is built through it (`OutcomeFields`).
import EngineInterface
import GroupCore
import Nostr
import Simulation

enum Observation {
    /// Label of every member key.
    static func labels(in world: World) -> [PublicKey: String] {
        Dictionary(uniqueKeysWithValues: world.labels.compactMap { label in world.member(label).map { ($0.publicKey, label) } })
    }

    /// The outcome of every member, keyed by label, with the engine reads that failed on the way
    /// (an outcome built on a failed read must not be judged).
    static func outcome(of world: World) async -> (outcome: Outcome, reads: MemberReads) {
        let names = labels(in: world)
        var members: [String: Outcome] = [:]
        var reads = MemberReads(world)
        for label in world.labels {
            guard let outcome = await outcome(of: label, names: names, reads: &reads) else { continue }
            members[label] = outcome
        }
        return (.map(members), reads)
    }

    static func name(_ key: PublicKey, _ names: [PublicKey: String]) -> String {
        names[key] ?? "unknown:\(key.hex.prefix(8))"
    }

    /// An npub as a chat shows it, read back: `npub of <label>` when it is valid NIP-19 text of a
    /// member's key (decoded here, not compared with what the core computed), else the text itself.
    static func npubShown(_ text: String, _ names: [PublicKey: String]) -> String {
        guard let key = try? PublicKey(npub: text), let label = names[key] else { return text }
        return "npub of \(label)"
    }

    /// One member's outcome (nil: no such member).
    static func outcome(of label: String, names: [PublicKey: String], reads: inout MemberReads) async -> Outcome? {
        guard let state = await reads.state(of: label) else { return nil }
        let snapshots = await reads.groups(of: label) ?? []
        var chats: [Outcome] = []
        for chat in state.chatList {
            // The whole roster, ourselves included (the summary lists the others and `me` apart).
            let roster = chat.roster
            var fields = OutcomeFields<OutcomeSchema.Chat>()
            fields.set(.name, .string(chat.groupName))
            fields.set(.members, .list(roster.map { name($0.pubkey, names) }.sorted().map(Outcome.string)))
            fields.set(.admins, .list(roster.filter(\.isAdmin).map { name($0.pubkey, names) }.sorted().map(Outcome.string)))
            fields.set(.removed, .bool(chat.isRemoved))
            fields.set(.others, .list(chat.members.map { name($0.pubkey, names) }.sorted().map(Outcome.string)))
            fields.set(.isAdmin, .bool(chat.isAdmin))
            fields.set(.description, .string(chat.description))
            fields.set(.lastMessage, chat.lastMessage.map(Outcome.string))
            fields.set(.isGroup, .bool(chat.isGroup))
            fields.set(.unread, .integer(Int64(clamping: chat.unreadCount)))
            fields.set(
                .memberNames,
                .map(Dictionary(roster.map { (name($0.pubkey, names), $0.name.map(Outcome.string) ?? .null) }) { first, _ in first }))
            fields.set(
                .memberNpubs,
                .map(Dictionary(roster.map { (name($0.pubkey, names), .string(npubShown($0.npub, names))) }) { first, _ in first }))
            fields.set(
                .memberPictures,
                .map(Dictionary(roster.map { (name($0.pubkey, names), $0.picture.map(Outcome.string) ?? .null) }) { first, _ in first }))
            // The status, not the hash (random, and different per engine's encryption).
            fields.set(.image, chat.image.map { .string($0.status.rawValue) })
            if let snapshot = snapshots.first(where: { chat.addresses.contains($0.nostrGroupID) }) {
                fields.set(.epoch, .integer(Int64(clamping: snapshot.epoch)))
                let messages = (await reads.messages(of: label, in: snapshot, named: chat.groupName) ?? [])
                    // Control messages and history packets are the core's, not what members said
                    // (a packet's messages are in `history`).
                    .filter { $0.rumor.kind != .roleControl && $0.rumor.kind != .joinerHistory }
                // A set, written sorted: engines stamp messages in whole seconds, so arrival order
                // within a second is not part of the outcome.
                let said = messages.map { "\(name($0.sender, names)): \(shownContent($0.rumor))" }.sorted().map(Outcome.string)
                fields.set(.messages, chat.deletion == .historyDropped ? .list([]) : .list(said))
                if chat.hasRoleChanges {
                    fields.set(
                        .hidden,
                        .list(
                            messages.filter { chat.hiddenMessageIDs.contains($0.rumor.id.hex) }
                                .map { "\(name($0.sender, names)): \(shownContent($0.rumor))" }.sorted().map(Outcome.string)))
                }
            }
            // From the core's state, not the engine's store: these messages came inside one
            // application message (the history packet), so the engine holds them only as that.
            fields.set(
                .history,
                .list(
                    chat.historyMessages.map { "\(name($0.senderPubkey, names)): \($0.content)" }.sorted().map(Outcome.string)))
            if chat.hasRoleChanges {
                fields.set(
                    .roles,
                    .map(Dictionary(uniqueKeysWithValues: chat.roles.map { (name($0.key, names), Outcome.string($0.value.rawValue)) })))
                fields.set(.blocked, .list(chat.blocked.map { name($0, names) }.sorted().map(Outcome.string)))
                fields.set(.link, chat.link.map { .map(["role": .string($0.role.rawValue), "approval": .bool($0.approval)]) } ?? .null)
                // Sorted: requests in the same second are ordered by rumor id, which MDK draws at random.
                fields.set(.pending, .list(chat.pendingJoins.map { name($0, names) }.sorted().map(Outcome.string)))
                fields.set(.deleted, chat.deletion.map { .string($0.rawValue) })
                fields.set(
                    .status,
                    .map(
                        Dictionary(uniqueKeysWithValues: chat.memberStatus.map { (name($0.key, names), Outcome.string($0.value.rawValue)) })
                    ))
                fields.set(.preferences, chat.preferences.map(preferencesOutcome))
            }
            chats.append(fields.outcome)
        }
        chats.sort { storedSummary($0, without: OutcomeSchema.Chat.expectOnly) < storedSummary($1, without: OutcomeSchema.Chat.expectOnly) }
        var notifications: [Outcome] = []
        for intent in state.notifications {
            notifications.append(
                await notificationOutcome(intent, state: state, snapshots: snapshots, label: label, names: names, reads: &reads))
        }
        var fields = OutcomeFields<OutcomeSchema.Member>()
        // A set, written sorted, like messages: arrival order within a run is not engine-independent.
        fields.set(
            .notifications,
            .list(
                notifications.sorted {
                    storedSummary($0, without: OutcomeSchema.Notification.expectOnly)
                        < storedSummary($1, without: OutcomeSchema.Notification.expectOnly)
                }))
        fields.set(.channels, .list(state.channels.map { channelOutcome($0, names: names) }))
        fields.set(.chats, .list(chats))
        fields.set(
            .busy,
            .list(
                state.busy.map { operation in
                    let chat = operation.chatID.flatMap { id in state.chatList.first { $0.chatID == id }?.groupName }
                    return .string(chat.map { "\(operation.kind): \($0)" } ?? operation.kind)
                }))
        switch state.route {
        case .chatList: fields.set(.route, .string("chat-list"))
        case .chat(let chatID):
            fields.set(.route, .string("chat: \(state.chatList.first { $0.chatID == chatID }?.groupName ?? "unknown chat")"))
        }
        // The chat list as shown, by name (most recent message first).
        fields.set(.chatOrder, .list(state.chatList.map { Outcome.string($0.groupName) }))
        fields.set(
            .chatEvents,
            .list(
                state.chatEvents.map { event in
                    .string("\(event.kind.rawValue): \(state.chatList.first { $0.chatID == event.chatID }?.groupName ?? "unknown chat")")
                }))
        fields.set(
            .openChat,
            state.currentChat.map { view -> Outcome in
                var open = OutcomeFields<OutcomeSchema.OpenChat>()
                open.set(.name, .string(view.groupName))
                open.set(.canLoadOlder, .bool(view.canLoadOlder))
                // In view order (created_at, ties by id), not sorted: the order is the point.
                open.set(.messages, .list(view.messages.map { .string("\(name($0.senderPubkey, names)): \($0.content)") }))
                open.set(.deliveries, .list(view.messages.filter(\.isMine).map { .string("\($0.content): \($0.delivery.rawValue)") }))
                return open.outcome
            })
        fields.set(
            .failedPeers,
            .list(
                state.failedPeers.map {
                    .map(["peer": .string(name($0.pubkey, names)), "reason": .string($0.reason.rawValue)])
                }.sorted { $0.summary < $1.summary }))
        fields.set(.errors, .list(state.errors.map { .string($0.code.name) }))
        fields.set(.rejections, .list(state.rejections.map { .string($0.reason) }.sorted { $0.summary < $1.summary }))
        let roleRejections = state.rejections.map(\.reason).filter { $0.hasPrefix("role.") || $0.hasPrefix("pref.") }.sorted()
        fields.set(.roleRejections, .list(roleRejections.map(Outcome.string)))
        fields.set(
            .pendingDecisions,
            .list(
                state.pendingDecisions.map { decision -> Outcome in
                    let action: String
                    switch decision.action {
                    case .createGroup(let name): action = "create-group \(name)"
                    case .addMembers(let chatID):
                        action = "add-members \(state.chatList.first { $0.chatID == chatID }?.groupName ?? "unknown chat")"
                    }
                    return .map([
                        "action": .string(action),
                        "ready": .list(decision.ready.map { .string(name($0, names)) }),
                        "failed": .list(
                            decision.failed.map {
                                .map(["peer": .string(name($0.pubkey, names)), "reason": .string($0.reason.rawValue)])
                            }.sorted { $0.summary < $1.summary }),
                    ])
                }))
        fields.set(.joinResults, .list(state.joinResults.map { .string($0.status.rawValue) }))
        fields.set(
            .invitations,
            .list(
                (state.invitations ?? []).map {
                    .string("\($0.groupName): \($0.status.rawValue) by \(name($0.inviter, names)), \($0.memberCount) members")
                }))
        fields.set(
            .preparedGroups,
            .list(
                (state.preparedGroups ?? []).map {
                    .string("\($0.name ?? "unnamed"): \($0.status.rawValue), \($0.memberCount.map { "\($0) members" } ?? "size unknown")")
                }))
        return fields.outcome
    }

    /// A chat's preferences; the voice, file and direct-message switches only when off (absent: on).
    static func preferencesOutcome(_ preferences: GroupPreferences) -> Outcome {
        var shown = OutcomeFields<OutcomeSchema.Preferences>()
        shown.set(.reactions, .bool(preferences.reactions))
        shown.set(.fullDeletion, .bool(preferences.fullDeletion))
        shown.set(.disappearAfter, .integer(Int64(clamping: preferences.disappearAfterSeconds)))
        shown.set(.historyForNewMembers, .bool(preferences.historyForNewMembers))
        shown.set(.welcome, .string(preferences.welcomeMessage))
        shown.set(.voiceMessages, .bool(preferences.voiceMessages))
        shown.set(.files, .bool(preferences.files))
        shown.set(.directMessages, .bool(preferences.directMessages))
        return shown.outcome
    }

    /// A map's summary without the keys vectors leave out: lists are sorted by what vectors store,
    /// so expect-only fields never change the order `expect` sections compare in.
    static func storedSummary(_ entry: Outcome, without keys: [String]) -> String {
        guard case .map(var fields) = entry else { return entry.summary }
        for key in keys { fields[key] = nil }
        return Outcome.map(fields).summary
    }

    /// A notification intent by labels and chat name; `payload` is `ok` when the intent points at
    /// its own chat (thread id = chat id, is-group as the chat) and at a message of that chat with
    /// that sender and timestamp, else what does not match; `type`, `sound` and `badge` as raised.
    static func notificationOutcome(
        _ intent: NotificationIntent, state: AppState, snapshots: [GroupSnapshot], label: String, names: [PublicKey: String],
        reads: inout MemberReads
    ) async -> Outcome {
        let payload = intent.payload
        let chat = state.chatList.first { $0.chatID == payload.chatID }
        var problems: [String] = []
        if intent.threadID != payload.chatID { problems.append("thread id is not the chat id") }
        if let chat, chat.isGroup != payload.isGroup {
            problems.append("is-group \(payload.isGroup) for a chat with is-group \(chat.isGroup)")
        }
        // A broadcast's chat is its channel, and its message the verified inner event shown there.
        let channel = state.channels.first { $0.channelID == payload.chatID }
        let snapshot = snapshots.first { $0.nostrGroupID == payload.chatID }
        var message: (sender: String, timestamp: UInt64)?
        if let channel {
            message = channel.messages.first { $0.id == payload.messageID }.map { ($0.senderPubkey.hex, $0.timestamp) }
        } else if let snapshot {
            let messages = await reads.messages(of: label, in: snapshot, named: String(payload.chatID.prefix(8))) ?? []
            message = messages.first { $0.rumor.id.hex == payload.messageID }.map { ($0.sender.hex, $0.rumor.createdAt) }
        }
        if chat == nil, channel == nil, snapshot == nil {
            // A channel the member left since: nothing is left to check the intent against (and the
            // message id, random for broadcasts, must not reach the stored outcome).
            problems.append("its chat is gone")
        } else if let message {
            if message.sender != payload.senderID { problems.append("sender id is not the message's sender") }
            if message.timestamp != payload.timestamp { problems.append("timestamp is not the message's") }
        } else {
            problems.append("no message \(payload.messageID.prefix(8)) in the chat")
        }
        let sender = (try? PublicKey(hex: payload.senderID)).map { name($0, names) } ?? "invalid:\(payload.senderID.prefix(8))"
        var fields = OutcomeFields<OutcomeSchema.Notification>()
        fields.set(.title, .string(intent.title))
        fields.set(.body, .string(intent.body))
        // A group the owner deleted has left the owner's chat list (001 §9) but not the engine: the
        // notification raised while it stood still names it.
        fields.set(.chat, .string(chat?.groupName ?? channel?.name ?? snapshot?.name ?? "unknown chat"))
        fields.set(.sender, .string(sender))
        fields.set(.group, .bool(payload.isGroup))
        fields.set(.payload, .string(problems.isEmpty ? "ok" : problems.joined(separator: "; ")))
        fields.set(.type, .string(payload.type.rawValue))
        fields.set(.sound, intent.sound.map(Outcome.string))
        fields.set(.badge, .integer(Int64(intent.badge)))
        // Whether it is the chat's verified group image, by hash, since the hash itself is random.
        fields.set(
            .image,
            intent.groupImage.map { image -> Outcome in
                let own = chat?.image
                return .string(own?.hash == image && own?.status == .verified ? "group image" : "not the chat's verified group image")
            })
        return fields.outcome
    }

    /// A rumor's text as the outcome shows it: a channel broadcast (kind 4462), deletion (4464) or
    /// owner list (4466, a co-owner leaving) carries a signed event whose signature is random and whose tag names the engine-made channel
    /// id, so only what it says is kept.
    static func shownContent(_ rumor: UnsignedEvent) -> String {
        guard let inner = try? Event(json: rumor.content) else { return rumor.content }
        switch rumor.kind {
        case .channelBroadcast: return "broadcast \(inner.content)"
        case .channelClosed: return "channel deleted"
        case .channelOwners: return "owner left"
        default: return rumor.content
        }
    }

    /// A channel by labels: its relays' progress (and, for owners, the subscriber counts they
    /// reported), whether a link exists, and the broadcasts shown, as a sorted set like messages.
    static func channelOutcome(_ channel: ChannelState, names: [PublicKey: String]) -> Outcome {
        var outcome = OutcomeFields<OutcomeSchema.Channel>()
        outcome.set(.name, .string(channel.name))
        outcome.set(.role, .string(channel.role.rawValue))
        outcome.set(.welcome, .string(channel.welcomeMessage))
        outcome.set(.connected, .string(channel.connectedSummary))
        outcome.set(.link, .bool(channel.link != nil))
        outcome.set(.joinFailed, .bool(channel.joinFailed))
        // Sorted like the relays: each owner learns the list in its own order (the group's admins).
        outcome.set(.owners, .list(channel.owners.map { .string(name($0, names)) }.sorted { $0.summary < $1.summary }))
        outcome.set(
            .relays,
            .list(
                channel.relays.sorted { name($0.pubkey, names) < name($1.pubkey, names) }.map { relay -> Outcome in
                    var fields = OutcomeFields<OutcomeSchema.ChannelRelay>()
                    fields.set(.relay, .string(name(relay.pubkey, names)))
                    fields.set(.status, .string(relay.status.rawValue))
                    fields.set(.subscribers, relay.subscribers.map { .integer(Int64($0)) })
                    fields.set(.failure, relay.failure.map(Outcome.string))
                    fields.set(.test, relay.test.map { .string($0.rawValue) })
                    return fields.outcome
                }))
        outcome.set(.rejectedBroadcasts, .list(channel.rejectedBroadcasts.sorted().map(Outcome.string)))
        outcome.set(
            .messages, .list(channel.messages.map { "\(name($0.senderPubkey, names)): \($0.content)" }.sorted().map(Outcome.string)))
        outcome.set(.deleted, channel.deleted ? .bool(true) : nil)
        return outcome.outcome
    }
}
