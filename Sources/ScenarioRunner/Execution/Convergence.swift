// The convergence oracle (MIP-03): after quiescence, every active member of a group holds the same
// group. "The same" is judged on three layers, each only as far as both members expose it:
//  1. what the engine reports: name, epoch, members, admins, and the group image's hash once set;
//  2. the exact MLS state (ExactGroupState): the Marmot exporter commitment, GroupContext hash,
//     tree hash, transcript hash, ratchet-tree digest, so that a fork at an equal epoch number shows;
//  3. the app-level state each member's GroupCore derives for the group: role table, blocked
//     members, hidden messages, preferences, link, pending join requests, deletion;
//  4. the canonical protocol snapshot (foundation/conformance.md; SnapshotComparison.swift): group
//     id, epoch, GroupContext hash, exporter commitment, leaves, required capabilities and the
//     dictionary (the legacy profile's group data), field by field and path by path.
import EngineInterface
import GroupCore
import Nostr
import Simulation

enum Convergence {
    /// One active member's view of one group.
    struct View {
        let label: String
        /// Layer 1, as one line.
        let summary: String
        /// Layer 2 (nil: the engine declares no `group.exact_state`).
        let exact: ExactGroupState?
        /// Layer 3 (nil: the core shows no chat for the group, e.g. a channel's relay).
        let app: Outcome?
        /// Rumor ids of the messages the member holds, and how to name them.
        let messages: [String: String]
        let hidden: Set<String>
        /// Layer 4 (nil: the engine declares no `group.protocol_snapshot`).
        var snapshot: ProtocolSnapshot? = nil
    }

    /// Every active member's view of every group, keyed by Marmot group id, with the reads that failed.
    static func views(in world: World) async -> (
        views: [String: [View]], reads: MemberReads, unexposed: [String], noSnapshot: [String]
    ) {
        let names = Observation.labels(in: world)
        var reads = MemberReads(world)
        var views: [String: [View]] = [:]
        var unexposed: [String] = []
        var noSnapshot: [String] = []
        for label in world.labels {
            guard let groups = await reads.groups(of: label) else { continue }
            let active = groups.filter { $0.state == .active }
            guard !active.isEmpty else { continue }
            let exposesExact = await reads.capabilities(of: label)?.supports(.exactState) ?? false
            if !exposesExact { unexposed.append(label) }
            let exposesSnapshot = await reads.capabilities(of: label)?.supports(.protocolSnapshot) ?? false
            if !exposesSnapshot { noSnapshot.append(label) }
            let chats = await reads.state(of: label)?.chatList ?? []
            for group in active {
                let roster = (await reads.members(of: label, in: group) ?? []).map { Observation.name($0, names) }.sorted()
                let admins = group.admins.map { Observation.name($0, names) }.sorted()
                let exact: ExactGroupState? = exposesExact ? await reads.exactState(of: label, in: group) : nil
                let held = await reads.messages(of: label, in: group) ?? []
                let chat = chats.first { $0.addresses.contains(group.nostrGroupID) && !$0.isRemoved }
                let snapshot = exposesSnapshot ? await reads.protocolSnapshot(of: label, in: group) : nil
                views[group.nostrGroupID, default: []].append(
                    View(
                        label: label, summary: summary(of: group, roster: roster, admins: admins), exact: exact,
                        app: chat.map { appState($0, names: names) },
                        messages: Dictionary(held.map { ($0.rumor.id.hex, "\(Observation.name($0.sender, names)): \($0.rumor.content)") }) {
                            a, _ in a
                        },
                        hidden: chat?.hiddenMessageIDs ?? [], snapshot: snapshot))
            }
        }
        return (views, reads, unexposed, noSnapshot)
    }

    /// Layer 1 as one line. The image (MIP-01 group data) only once set, so that a group without one
    /// reads as before; by hash, which every member's group data must name alike.
    static func summary(of group: GroupSnapshot, roster: [String], admins: [String]) -> String {
        let image = group.image.map { ", image \($0.hashHex.prefix(16))" } ?? ""
        return "name \(group.name), epoch \(group.epoch), members \(roster), admins \(admins)\(image)"
    }

    /// What a member's core derived for the group, by labels (hidden messages are compared apart).
    static func appState(_ chat: ChatSummary, names: [PublicKey: String]) -> Outcome {
        var fields: [String: Outcome] = [
            "roles": .map(
                Dictionary(uniqueKeysWithValues: chat.roles.map { (Observation.name($0.key, names), Outcome.string($0.value.rawValue)) })),
            "blocked": .list(chat.blocked.map { Observation.name($0, names) }.sorted().map(Outcome.string)),
            "pending": .list(chat.pendingJoins.map { Observation.name($0, names) }.sorted().map(Outcome.string)),
            "deleted": chat.deletion.map { .string($0.rawValue) } ?? .null,
            "link": chat.link.map {
                .map([
                    "role": .string($0.role.rawValue), "approval": .bool($0.approval), "admin": .string(Observation.name($0.admin, names)),
                    "token": .string($0.token),
                ])
            } ?? .null,
        ]
        if let preferences = chat.preferences {
            fields["preferences"] = .map([
                "reactions": .bool(preferences.reactions), "full-deletion": .bool(preferences.fullDeletion),
                "disappear-after": .integer(Int64(clamping: preferences.disappearAfterSeconds)),
                "history-for-new-members": .bool(preferences.historyForNewMembers), "welcome": .string(preferences.welcomeMessage),
            ])
        } else {
            fields["preferences"] = .null
        }
        return .map(fields)
    }

    /// How `other` differs from `reference` in layers 2 and 3, one phrase per difference; empty when
    /// they agree (layer 1 is compared over all members at once, in `divergences`).
    static func differences(_ reference: View, _ other: View) -> [String] {
        var out: [String] = []
        // At different epochs every digest differs; the summary already says so.
        if let a = reference.exact, let b = other.exact, a.epoch == b.epoch {
            for (left, right) in zip(a.fields, b.fields) {
                guard let x = left.value, let y = right.value, x != y else { continue }
                out.append("\(left.name): \(reference.label) \(x.prefix(16)), \(other.label) \(y.prefix(16))")
            }
        }
        // A core that shows no chat for a group it holds (a channel's relay, a subscriber's fan-out
        // group) derives no app state for it: nothing to compare.
        guard let a = reference.app, let b = other.app else { return out }
        out += a.differences(from: b).map { "app state \($0.path): \(reference.label) \($0.expected), \(other.label) \($0.observed)" }
        // Hidden messages: only those both hold (a joiner may lack older history).
        let common = Set(reference.messages.keys).intersection(other.messages.keys)
        for id in common.sorted() where reference.hidden.contains(id) != other.hidden.contains(id) {
            let hider = reference.hidden.contains(id) ? reference.label : other.label
            out.append("app state hidden: only \(hider) hides \"\(reference.messages[id] ?? id)\"")
        }
        return out
    }

    /// Groups on which the active members disagree, one line per group; empty when all agree.
    static func divergences(_ views: [String: [View]]) -> [String] {
        var out: [String] = []
        for (_, members) in views.sorted(by: { $0.key < $1.key }) where members.count > 1 {
            let reference = members[0]
            var found: [String] = []
            if Set(members.map(\.summary)).count > 1 { found.append(members.map { "\($0.label): \($0.summary)" }.joined(separator: "; ")) }
            found += members.dropFirst().flatMap { differences(reference, $0) }
            found += SnapshotComparison.compare(snapshots(of: members)).differences
            if !found.isEmpty { out.append(found.joined(separator: "; ")) }
        }
        return out
    }

    /// The members that gave a snapshot of the group, in label order.
    static func snapshots(of members: [View]) -> [(label: String, snapshot: ProtocolSnapshot)] {
        members.compactMap { view in view.snapshot.map { (view.label, $0) } }
    }

    /// What the check could not compare, and why: members whose engines declare no exact state or
    /// snapshot, and each shared snapshot field a member's engine does not give (once per member
    /// and field, across groups).
    static func notCompared(_ views: [String: [View]], unexposed: [String], noSnapshot: [String]) -> String {
        var notes: [String] = []
        if !unexposed.isEmpty {
            notes.append("exact MLS state not compared for \(unexposed.joined(separator: ", ")): engine declares no group.exact_state")
        }
        if !noSnapshot.isEmpty {
            notes.append(
                "protocol snapshot not compared for \(noSnapshot.joined(separator: ", ")): engine declares no group.protocol_snapshot")
        }
        var fields: [String] = []
        for (_, members) in views.sorted(by: { $0.key < $1.key }) where members.count > 1 {
            for note in SnapshotComparison.compare(snapshots(of: members)).notCompared where !fields.contains(note) { fields.append(note) }
        }
        if !fields.isEmpty { notes.append("snapshot fields not compared: " + fields.joined(separator: "; ")) }
        return notes.joined(separator: "; ")
    }

    /// The convergence oracle as a check, compared with `expected`; an `error` when a read failed.
    static func check(_ name: String, in world: World, expected: Bool = true) async -> CheckResult {
        let (views, reads, unexposed, noSnapshot) = await views(in: world)
        let divergences = divergences(views)
        let compared =
            "members, admins, name, epoch, image, exact MLS state, app state (roles, blocked, hidden, preferences, link, pending) "
            + "and protocol snapshot (group id, epoch, GroupContext hash, exporter commitment, leaves, required capabilities, dictionary)"
        let result = CheckResult(
            check: name, clause: ScenarioExecutor.convergenceClause, verdict: divergences.isEmpty == expected ? .pass : .fail,
            expected: expected ? "every active member agrees on \(compared)" : "members disagree",
            observed: divergences.isEmpty ? "all agree" : divergences.joined(separator: " | "),
            detail: notCompared(views, unexposed: unexposed, noSnapshot: noSnapshot))
        return reads.judged(result)
    }
}
