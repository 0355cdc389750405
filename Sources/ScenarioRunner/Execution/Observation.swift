// What each member ended up with, as an engine-independent Outcome: members are named by label,
// never by key, and nothing random (ids, timestamps, MLS group ids) is kept.
import EngineInterface
import GroupCore
import Nostr
import Simulation

enum Observation {
    /// Label of every member key.
    static func labels(in world: World) -> [PublicKey: String] {
        Dictionary(uniqueKeysWithValues: world.labels.compactMap { label in world.member(label).map { ($0.publicKey, label) } })
    }

    /// The outcome of every member, keyed by label.
    static func outcome(of world: World) async -> Outcome {
        let names = labels(in: world)
        var members: [String: Outcome] = [:]
        for label in world.labels {
            guard let member = world.member(label) else { continue }
            members[label] = await outcome(of: member, names: names)
        }
        return .map(members)
    }

    static func name(_ key: PublicKey, _ names: [PublicKey: String]) -> String {
        names[key] ?? "unknown:\(key.hex.prefix(8))"
    }

    static func outcome(of member: SimulatedMember, names: [PublicKey: String]) async -> Outcome {
        let state = await member.core.state()
        let snapshots = (try? await member.engine.groups()) ?? []
        var chats: [Outcome] = []
        for chat in state.chatList {
            var fields: [String: Outcome] = [
                "name": .string(chat.groupName),
                "members": .list(chat.members.map { name($0.pubkey, names) }.sorted().map(Outcome.string)),
                "admins": .list(chat.members.filter(\.isAdmin).map { name($0.pubkey, names) }.sorted().map(Outcome.string)),
                "removed": .bool(chat.isRemoved),
            ]
            if let snapshot = snapshots.first(where: { $0.nostrGroupID == chat.chatID }) {
                fields["epoch"] = .integer(Int64(clamping: snapshot.epoch))
                let messages = ((try? await member.engine.messages(in: snapshot.mlsGroupID)) ?? []).filter { $0.rumor.kind != .roleControl }
                // A set, written sorted: engines stamp messages in whole seconds, so arrival order
                // within a second is not part of the outcome.
                fields["messages"] = .list(
                    messages.map { "\(name($0.sender, names)): \($0.rumor.content)" }.sorted().map(Outcome.string))
                if chat.deletion == .historyDropped { fields["messages"] = .list([]) }
                if chat.hasRoleChanges {
                    // Only chats that used the role hierarchy carry these, so older vectors stay as they were.
                    fields["hidden"] = .list(messages.filter { chat.hiddenMessageIDs.contains($0.rumor.id.hex) }
                        .map { "\(name($0.sender, names)): \($0.rumor.content)" }.sorted().map(Outcome.string))
                }
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
                    fields["preferences"] = .map([
                        "reactions": .bool(preferences.reactions), "full-deletion": .bool(preferences.fullDeletion),
                        "disappear-after": .integer(Int64(clamping: preferences.disappearAfterSeconds)),
                        "history-for-new-members": .bool(preferences.historyForNewMembers), "welcome": .string(preferences.welcomeMessage),
                    ])
                }
            }
            chats.append(.map(fields))
        }
        chats.sort { $0.summary < $1.summary }
        let roleRejections = state.rejections.map(\.reason).filter { $0.hasPrefix("role.") || $0.hasPrefix("pref.") }.sorted()
        var fields: [String: Outcome] = [
            "chats": .list(chats),
            "failed-peers": .list(state.failedPeers.map {
                .map(["peer": .string(name($0.pubkey, names)), "reason": .string($0.reason.rawValue)])
            }.sorted { $0.summary < $1.summary }),
            "errors": .list(state.errors.map { .string($0.code.name) }),
            "rejections": .list(state.rejections.map { .string($0.reason) }.sorted { $0.summary < $1.summary }),
        ]
        // The permission table's rejections are ours, the same on every engine, so vectors keep them.
        if !roleRejections.isEmpty { fields["role-rejections"] = .list(roleRejections.map(Outcome.string)) }
        if !state.joinResults.isEmpty { fields["join-results"] = .list(state.joinResults.map { .string($0.status.rawValue) }) }
        return .map(fields)
    }

    /// Groups on which the active members disagree (members, admins, name, epoch), per MIP-03
    /// convergence; empty when everyone agrees.
    static func divergences(in world: World) async -> [String] {
        let names = labels(in: world)
        var views: [String: [(label: String, view: String)]] = [:]
        for label in world.labels {
            guard let member = world.member(label), let groups = try? await member.engine.groups() else { continue }
            for group in groups where group.state == .active {
                let roster = ((try? await member.engine.members(of: group.mlsGroupID)) ?? []).map { name($0, names) }.sorted()
                let admins = group.admins.map { name($0, names) }.sorted()
                let view = "name \(group.name), epoch \(group.epoch), members \(roster), admins \(admins)"
                views[group.nostrGroupID, default: []].append((label, view))
            }
        }
        var out: [String] = []
        for (_, members) in views.sorted(by: { $0.key < $1.key }) where Set(members.map(\.view)).count > 1 {
            out.append(members.map { "\($0.label): \($0.view)" }.joined(separator: "; "))
        }
        return out
    }

    /// The MIP-03 convergence oracle as a check: whether every active member agrees on each group's
    /// members, admins, name and epoch is compared with `expected`.
    static func convergenceCheck(_ name: String, in world: World, expected: Bool = true) async -> CheckResult {
        let divergences = await divergences(in: world)
        return CheckResult(
            check: name, clause: ScenarioExecutor.convergenceClause, verdict: divergences.isEmpty == expected ? .pass : .fail,
            expected: expected ? "every active member agrees on members, admins, name and epoch" : "members disagree",
            observed: divergences.isEmpty ? "all agree" : divergences.joined(separator: " | "))
    }
}
