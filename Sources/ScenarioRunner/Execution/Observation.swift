// What each member ended up with, as an engine-independent Outcome: members are named by label,
// never by key, and nothing random (ids, timestamps, MLS group ids) is kept. Members are read
// only through `MemberReads`.
import EngineInterface
import GroupCore
import Nostr
import Simulation

enum Observation {
    /// List fields a member's outcome carries only while they hold something, so that vectors
    /// stored before the field existed keep their shape; an expectation of `[]` matches their absence.
    static let listsOnlyWhenNonEmpty: Set<String> = ["role-rejections", "join-results", "pending-decisions"]
    /// The same for a chat's fields: `history` (messages a joiner was sent by the adding admin).
    static let chatListsOnlyWhenNonEmpty: Set<String> = ["history"]

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

    /// One member's outcome (nil: no such member).
    static func outcome(of label: String, names: [PublicKey: String], reads: inout MemberReads) async -> Outcome? {
        guard let state = await reads.state(of: label) else { return nil }
        let snapshots = await reads.groups(of: label) ?? []
        var chats: [Outcome] = []
        for chat in state.chatList {
            // The whole roster, ourselves included (the summary lists the others and `me` apart).
            let roster = chat.roster
            var fields: [String: Outcome] = [
                "name": .string(chat.groupName),
                "members": .list(roster.map { name($0.pubkey, names) }.sorted().map(Outcome.string)),
                "admins": .list(roster.filter(\.isAdmin).map { name($0.pubkey, names) }.sorted().map(Outcome.string)),
                "removed": .bool(chat.isRemoved),
                // Checked by `expect` only; vectors leave them out (ConformanceRunner.vectorOutcome).
                "others": .list(chat.members.map { name($0.pubkey, names) }.sorted().map(Outcome.string)),
                "is-admin": .bool(chat.isAdmin), "description": .string(chat.description),
                "last-message": chat.lastMessage.map(Outcome.string) ?? .null,
            ]
            // Only once the group data names a picture, so vectors of chats without one keep their
            // shape; the status, not the hash (random, and different per engine's encryption).
            if let image = chat.image { fields["image"] = .string(image.status.rawValue) }
            if let snapshot = snapshots.first(where: { $0.nostrGroupID == chat.chatID }) {
                fields["epoch"] = .integer(Int64(clamping: snapshot.epoch))
                let messages = (await reads.messages(of: label, in: snapshot, named: chat.groupName) ?? [])
                    // Control messages and history packets are the core's, not what members said
                    // (a packet's messages are in `history`).
                    .filter { $0.rumor.kind != .roleControl && $0.rumor.kind != .joinerHistory }
                // A set, written sorted: engines stamp messages in whole seconds, so arrival order
                // within a second is not part of the outcome.
                fields["messages"] = .list(
                    messages.map { "\(name($0.sender, names)): \(shownContent($0.rumor))" }.sorted().map(Outcome.string))
                if chat.deletion == .historyDropped { fields["messages"] = .list([]) }
                if chat.hasRoleChanges {
                    // Only chats that used the role hierarchy carry these, so older vectors stay as they were.
                    fields["hidden"] = .list(messages.filter { chat.hiddenMessageIDs.contains($0.rumor.id.hex) }
                        .map { "\(name($0.sender, names)): \(shownContent($0.rumor))" }.sorted().map(Outcome.string))
                }
            }
            if !chat.historyMessages.isEmpty {
                // From the core's state, not the engine's store: these messages came inside one
                // application message (the history packet), so the engine holds them only as that.
                fields["history"] = .list(
                    chat.historyMessages.map { "\(name($0.senderPubkey, names)): \($0.content)" }.sorted().map(Outcome.string))
            }
            if chat.hasRoleChanges {
                fields["roles"] = .map(Dictionary(uniqueKeysWithValues: chat.roles.map { (name($0.key, names), Outcome.string($0.value.rawValue)) }))
                fields["blocked"] = .list(chat.blocked.map { name($0, names) }.sorted().map(Outcome.string))
                fields["link"] = chat.link.map { .map(["role": .string($0.role.rawValue), "approval": .bool($0.approval)]) } ?? .null
                // Sorted: requests in the same second are ordered by rumor id, which MDK draws at random.
                fields["pending"] = .list(chat.pendingJoins.map { name($0, names) }.sorted().map(Outcome.string))
                if let deletion = chat.deletion { fields["deleted"] = .string(deletion.rawValue) }
                fields["status"] = .map(Dictionary(uniqueKeysWithValues: chat.memberStatus.map { (name($0.key, names), Outcome.string($0.value.rawValue)) }))
                if let preferences = chat.preferences {
                    var shown: [String: Outcome] = [
                        "reactions": .bool(preferences.reactions), "full-deletion": .bool(preferences.fullDeletion),
                        "disappear-after": .integer(Int64(clamping: preferences.disappearAfterSeconds)),
                        "history-for-new-members": .bool(preferences.historyForNewMembers), "welcome": .string(preferences.welcomeMessage),
                    ]
                    // Only when switched off, so that stored vectors from before these existed keep their bytes.
                    if !preferences.voiceMessages { shown["voice-messages"] = .bool(false) }
                    if !preferences.files { shown["files"] = .bool(false) }
                    if !preferences.directMessages { shown["direct-messages"] = .bool(false) }
                    fields["preferences"] = .map(shown)
                }
            }
            chats.append(.map(fields))
        }
        chats.sort { storedSummary($0, without: ConformanceRunner.expectOnlyChatKeys) < storedSummary($1, without: ConformanceRunner.expectOnlyChatKeys) }
        var notifications: [Outcome] = []
        for intent in state.notifications {
            notifications.append(await notificationOutcome(intent, state: state, snapshots: snapshots, label: label, names: names, reads: &reads))
        }
        // The chat list as shown, by name (most recent message first): checked by `expect` only.
        let chatOrder = state.chatList.map { Outcome.string($0.groupName) }
        let roleRejections = state.rejections.map(\.reason).filter { $0.hasPrefix("role.") || $0.hasPrefix("pref.") }.sorted()
        var fields: [String: Outcome] = [
            // A set, written sorted, like messages: arrival order within a run is not engine-independent.
            "notifications": .list(notifications.sorted {
                storedSummary($0, without: ConformanceRunner.expectOnlyNotificationKeys)
                    < storedSummary($1, without: ConformanceRunner.expectOnlyNotificationKeys)
            }),
            "channels": .list(state.channels.map { channelOutcome($0, names: names) }),
            "chats": .list(chats),
            "chat-order": .list(chatOrder),
            "chat-events": .list(state.chatEvents.map { event in
                .string("\(event.kind.rawValue): \(state.chatList.first { $0.chatID == event.chatID }?.groupName ?? "unknown chat")")
            }),
            "open-chat": state.currentChat.map { view in
                .map([
                    "name": .string(view.groupName), "can-load-older": .bool(view.canLoadOlder),
                    // In view order (created_at, ties by id), not sorted: the order is the point.
                    "messages": .list(view.messages.map { .string("\(name($0.senderPubkey, names)): \($0.content)") }),
                ])
            } ?? .null,
            "failed-peers": .list(state.failedPeers.map {
                .map(["peer": .string(name($0.pubkey, names)), "reason": .string($0.reason.rawValue)])
            }.sorted { $0.summary < $1.summary }),
            "errors": .list(state.errors.map { .string($0.code.name) }),
            "rejections": .list(state.rejections.map { .string($0.reason) }.sorted { $0.summary < $1.summary }),
        ]
        // The permission table's rejections are ours, the same on every engine, so vectors keep them.
        if !roleRejections.isEmpty { fields["role-rejections"] = .list(roleRejections.map(Outcome.string)) }
        // Only while some decision waits, so that vectors of runs that never ask keep their shape.
        if !state.pendingDecisions.isEmpty {
            fields["pending-decisions"] = .list(state.pendingDecisions.map { decision in
                let action: String
                switch decision.action {
                case .createGroup(let name): action = "create-group \(name)"
                case .addMembers(let chatID):
                    action = "add-members \(state.chatList.first { $0.chatID == chatID }?.groupName ?? "unknown chat")"
                }
                return .map([
                    "action": .string(action),
                    "ready": .list(decision.ready.map { .string(name($0, names)) }),
                    "failed": .list(decision.failed.map {
                        .map(["peer": .string(name($0.pubkey, names)), "reason": .string($0.reason.rawValue)])
                    }.sorted { $0.summary < $1.summary }),
                ])
            })
        }
        if !state.joinResults.isEmpty { fields["join-results"] = .list(state.joinResults.map { .string($0.status.rawValue) }) }
        return .map(fields)
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
        if let chat, chat.isGroup != payload.isGroup { problems.append("is-group \(payload.isGroup) for a chat with is-group \(chat.isGroup)") }
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
        var fields: [String: Outcome] = [
            "title": .string(intent.title), "body": .string(intent.body), "chat": .string(chat?.groupName ?? channel?.name ?? "unknown chat"),
            "sender": .string(sender), "group": .bool(payload.isGroup),
            "payload": .string(problems.isEmpty ? "ok" : problems.joined(separator: "; ")),
            // Checked by `expect` only; vectors leave them out (ConformanceRunner.vectorOutcome).
            "type": .string(payload.type.rawValue), "sound": intent.sound.map(Outcome.string) ?? .null,
            "badge": .integer(Int64(intent.badge)),
        ]
        // Only when the intent names a picture (older vectors keep their shape): whether it is the
        // chat's verified group image, by hash, since the hash itself is random.
        if let image = intent.groupImage {
            let own = chat?.image
            fields["image"] = .string(
                own?.hash == image && own?.status == .verified ? "group image" : "not the chat's verified group image")
        }
        return .map(fields)
    }

    /// A rumor's text as the outcome shows it: a channel broadcast (kind 4462) or deletion (4464)
    /// carries a signed event whose signature is random and whose tag names the engine-made channel
    /// id, so only what it says is kept.
    static func shownContent(_ rumor: UnsignedEvent) -> String {
        guard let inner = try? Event(json: rumor.content) else { return rumor.content }
        switch rumor.kind {
        case .channelBroadcast: return "broadcast \(inner.content)"
        case .channelClosed: return "channel deleted"
        default: return rumor.content
        }
    }

    /// A channel by labels: its relays' progress (and, for owners, the subscriber counts they
    /// reported), whether a link exists, and the broadcasts shown, as a sorted set like messages.
    static func channelOutcome(_ channel: ChannelState, names: [PublicKey: String]) -> Outcome {
        var outcome: [String: Outcome] = [
            "name": .string(channel.name), "role": .string(channel.role.rawValue), "welcome": .string(channel.welcomeMessage),
            "connected": .string(channel.connectedSummary), "link": .bool(channel.link != nil), "join-failed": .bool(channel.joinFailed),
            "relays": .list(channel.relays.sorted { name($0.pubkey, names) < name($1.pubkey, names) }.map { relay in
                var fields: [String: Outcome] = ["relay": .string(name(relay.pubkey, names)), "status": .string(relay.status.rawValue)]
                if let subscribers = relay.subscribers { fields["subscribers"] = .integer(Int64(subscribers)) }
                if let failure = relay.failure { fields["failure"] = .string(failure) }
                if let test = relay.test { fields["test"] = .string(test.rawValue) }
                return .map(fields)
            }),
            "rejected-broadcasts": .list(channel.rejectedBroadcasts.sorted().map(Outcome.string)),
            "messages": .list(channel.messages.map { "\(name($0.senderPubkey, names)): \($0.content)" }.sorted().map(Outcome.string)),
        ]
        // Only once deleted, so that vectors stored before deletions existed keep their bytes.
        if channel.deleted { outcome["deleted"] = .bool(true) }
        return .map(outcome)
    }
}
