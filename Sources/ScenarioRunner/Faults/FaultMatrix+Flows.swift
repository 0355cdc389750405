// The table the fault matrix is generated from: every flow, its publish and delivery points, and
// the state after healing. Adding a flow or a point is one entry here (docs/fault-matrix.md).
extension FaultMatrix {
    // MARK: - Points

    /// A member's kind-445 event as it leaves for the group relay (commit, proposal, message).
    static func published(_ name: String, by member: String, _ what: String) -> Point {
        Point(
            name: name, summary: "\(member)'s \(what) (kind 445) as published", member: member, kind: 445, direction: .toRelay,
            relay: "group")
    }

    /// The flow's first kind-445 event as the group relay delivers it to `member`.
    static func delivered(_ name: String, to member: String, _ what: String) -> Point {
        Point(
            name: name, summary: "the \(what) (kind 445) as delivered to \(member)", member: member, kind: 445, direction: .toMember,
            relay: "group")
    }

    /// The welcome gift wrap (kind 1059) as the inviter publishes it to the invitee's inbox.
    static func welcome(to inbox: String) -> Point {
        Point(
            name: "welcome", summary: "alice's welcome gift wrap (kind 1059) as published", member: "alice", kind: 1059,
            direction: .toRelay, relay: inbox)
    }

    /// The welcome gift wrap as the inbox relay delivers it to the invitee.
    static func welcomeDelivered(to member: String, inbox: String) -> Point {
        Point(
            name: "welcome-at-invitee", summary: "the welcome gift wrap (kind 1059) as delivered to \(member)", member: member, kind: 1059,
            direction: .toMember, relay: inbox)
    }

    /// The invitee's key package (kind 30443) as the key-package relay answers the inviter's fetch.
    static let keyPackage = Point(
        name: "key-package", summary: "the invitee's key package (kind 30443) as fetched by alice", member: "alice",
        kind: 30443, direction: .toMember, relay: "disc")

    // MARK: - Final outcomes and open defects

    /// The group as it was before the flow, with carol writing after healing.
    static let unchanged = Outcome(members: everyone, probe: "carol")

    /// bob's key package comes after the relay's EOSE: MIP-00's partial failure, the group is
    /// created without him.
    static let createWithoutBob = Final(
        why:
            "bob's key package reaches alice after the relay's EOSE ended her lookup (late, or overtaken by the EOSE): the group is created without him (MIP-00 partial failure) and he is reported as a failed peer (no_key_package).",
        outcome: Outcome(members: ["alice", "carol"], probe: "carol"))

    /// A commit no relay accepted: MIP-03 forbids applying it, so the committer clears it and
    /// reports `core.commitNotAcknowledged`, and nobody applied it (no split).
    static func commitRefused(
        _ point: String = "commit", by actor: String = "alice", outcome: Outcome = unchanged,
        race: Bool = false, faults: [Fault] = [.reject, .relayDown, .senderPartitioned]
    ) -> [String: Final] {
        let why: [Fault: String] = [
            .reject:
                "the relay refuses the commit; MIP-03 forbids applying a commit no relay accepted, so it is cleared (`core.commitNotAcknowledged`) and nobody applied it.",
            .relayDown:
                "no relay can take the commit before its republishes run out; it is cleared (`core.commitNotAcknowledged`) and nobody applied it.",
            .senderPartitioned:
                "the committer reaches no relay before its republishes run out; the commit is cleared (`core.commitNotAcknowledged`) and nobody applied it.",
        ]
        var finals: [String: Final] = [:]
        for fault in faults {
            finals["\(point)-\(fault.rawValue)"] = Final(
                why: why[fault] ?? "", outcome: outcome, errors: race ? nil : [actor: ["core.commitNotAcknowledged"]])
        }
        return finals
    }

    /// The invitee's key package never reaches the inviter within the fetch timeout (MIP-00): the
    /// add fails visibly (`core.allPeersFailed`) and the group stays as it was.
    static let keyPackageLost: [String: Final] = Dictionary(
        uniqueKeysWithValues: ["drop", "delay", "reorder", "receiver-partitioned"].map {
            (
                "key-package-\($0)",
                Final(
                    why: $0 == "drop"
                        ? "the inviter's connection to the key-package relay is lost with the invitee's key package (TCP loses no single frame): the lookup fails (`relay_down`, MIP-00) and the add fails with `core.allPeersFailed`."
                        : $0 == "receiver-partitioned"
                            ? "the inviter reaches no key-package relay before the fetch times out (MIP-00): the add fails with `core.allPeersFailed`."
                            : "the invitee's key package reaches the inviter after the relay's EOSE ended the lookup (late, or overtaken by the EOSE; MIP-00 no_key_package): the add fails with `core.allPeersFailed`.",
                    outcome: unchanged, errors: ["alice": ["core.allPeersFailed"]])
            )
        })

    // MDK 0.8.0's own defects (docs/fault-matrix.md, "MDK 0.8.0 defects"; known-defects.yaml;
    // docs/findings/mdk-race-rollback.md and mdk-catch-up-and-readd.md).

    /// A commit of an epoch not reached yet (a delayed commit overtaken by the next one) is recorded
    /// as failed and refused when handed again after the missing commit.
    static let mdkRefusesFailedCommit =
        "MDK 0.8.0 records carol's late add commit, met after dave's self-update of the next epoch, as failed and refuses it when handed again: carol stays behind."

    /// A commit naming a SelfRemove proposal that has not arrived yet is recorded as failed.
    static let mdkRefusesCommitBeforeProposal =
        "MDK 0.8.0 cannot process bob's commit of carol's SelfRemove before the proposal itself, records it as failed and refuses it when handed again once the proposal is there: alice stays behind."

    /// The same, met by the committer catching up after her partition.
    static let mdkRefusesCommitBeforeProposalAfterPartition =
        "alice, catching up after her partition, meets bob's commit of carol's SelfRemove before the proposal; MDK 0.8.0 records it as failed and refuses it when handed again once the proposal is there: alice stays behind."

    /// Rolled back to the epoch before our own merged commit, MDK holds none of that epoch's proposals.
    static let mdkKeepsNoRollbackProposal =
        "alice merges her rename at its OK, then meets carol's SelfRemove proposal (of the epoch she left) and bob's commit of it, which MIP-03 ranks first (same second, smaller id); MDK 0.8.0 rolls back to its snapshot of that epoch, which holds no proposal, so bob's commit is unprocessable and alice stays at the old epoch with carol (docs/findings/mdk-race-rollback.md)."

    /// The same reason for each of `cells` (an `open` or `mdkDefects` table).
    static func each(_ cells: [String], _ reason: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: cells.map { ($0, reason) })
    }

    // MARK: - Flows

    static let everyone = ["alice", "bob", "carol"]
    static let withoutCarol = ["alice", "bob"]
    static let withDave = ["alice", "bob", "carol", "dave"]
    static let renamed = "Renamed"

    /// One flow per scenario verb that publishes something, then the races.
    static let flows: [Flow] = single + races

    static let single: [Flow] = [
        Flow(
            name: "create", summary: "alice creates the group with bob (admin) and carol.", needsGroup: false,
            actions: ["create-group: { by: alice, with: [bob, carol], admins: [bob], name: Team }"],
            points: [keyPackage, welcome(to: "inbox"), welcomeDelivered(to: "carol", inbox: "inbox")],
            outcome: Outcome(members: everyone, probe: "carol"),
            finals: [
                "key-package-drop": Final(
                    why:
                        "alice's connection to the key-package relay is lost with bob's key package (TCP loses no single frame): every lookup there fails (`relay_down`, MIP-00) and no group is created (`core.allPeersFailed`).",
                    outcome: Outcome(members: [], probe: nil), errors: ["alice": ["core.allPeersFailed"]]),
                "key-package-delay": createWithoutBob, "key-package-reorder": createWithoutBob,
                "key-package-receiver-partitioned": Final(
                    why:
                        "alice reaches no key-package relay: every invitee fails (MIP-00) and no group is created (`core.allPeersFailed`).",
                    outcome: Outcome(members: [], probe: nil), errors: ["alice": ["core.allPeersFailed"]]),
            ]),
        Flow(
            name: "add", summary: "alice adds dave.", withDave: true,
            actions: ["add-members: { by: alice, members: dave }"],
            points: [
                keyPackage, published("commit", by: "alice", "add commit"), delivered("commit-at-peer", to: "carol", "add commit"),
                welcome(to: inviteeInbox), welcomeDelivered(to: "dave", inbox: inviteeInbox),
            ],
            outcome: Outcome(members: withDave, probe: "dave"),
            finals: commitRefused(faults: [.reject, .relayDown]).merging(keyPackageLost) { $1 },
            mdkDefects: each(["commit-at-peer-delay"], mdkRefusesFailedCommit)),
        Flow(
            name: "remove", summary: "alice removes carol.",
            actions: ["remove-members: { by: alice, members: carol }"],
            points: [published("commit", by: "alice", "remove commit"), delivered("commit-at-peer", to: "bob", "remove commit")],
            outcome: Outcome(members: withoutCarol, removed: ["carol"], probe: "bob"),
            finals: commitRefused()),
        Flow(
            name: "rename", summary: "alice renames the group.",
            actions: ["rename: { by: alice, to: \(renamed) }"],
            points: [published("commit", by: "alice", "rename commit"), delivered("commit-at-peer", to: "carol", "rename commit")],
            outcome: Outcome(members: everyone, name: renamed, probe: "carol"),
            finals: commitRefused()),
        Flow(
            name: "leave", summary: "carol (not an admin) leaves; an admin commits her SelfRemove proposal.",
            actions: ["leave: { by: carol }"],
            points: [
                published("proposal", by: "carol", "SelfRemove proposal"),
                delivered("proposal-at-peer", to: "alice", "SelfRemove proposal"),
            ],
            outcome: Outcome(members: withoutCarol, removed: ["carol"], probe: "bob"),
            mdkDefects: each(
                [
                    "proposal-at-peer-delay", "proposal-at-peer-drop", "proposal-at-peer-receiver-partitioned", "proposal-at-peer-reorder",
                    "proposal-at-peer-restart",
                ], mdkRefusesCommitBeforeProposal)),
        Flow(
            name: "send", summary: "carol sends a message.",
            actions: ["send: { by: carol, text: hello }"],
            points: [
                published("message", by: "carol", "application message"), delivered("message-at-peer", to: "bob", "application message"),
            ],
            outcome: Outcome(members: everyone, messages: ["carol: hello"], probe: "bob")),
        Flow(
            name: "set-role", summary: "alice makes carol a moderator (a control message).",
            actions: ["set-role: { by: alice, member: carol, role: moderator }"],
            points: [published("control", by: "alice", "role change"), delivered("control-at-peer", to: "carol", "role change")],
            outcome: Outcome(members: everyone, chatFields: ["roles: { alice: owner, bob: admin, carol: moderator }"], probe: "carol")),
        Flow(
            name: "block", summary: "alice blocks carol (a control message).",
            actions: ["block: { by: alice, member: carol }"],
            points: [published("control", by: "alice", "block"), delivered("control-at-peer", to: "bob", "block")],
            outcome: Outcome(members: everyone, chatFields: ["blocked: [carol]"], probe: "bob")),
        Flow(
            name: "set-preferences", summary: "alice switches reactions off (a control message).",
            actions: ["set-preferences: { by: alice, reactions: false }"],
            points: [published("control", by: "alice", "preferences"), delivered("control-at-peer", to: "carol", "preferences")],
            outcome: Outcome(
                members: everyone,
                chatFields: [
                    "preferences: { reactions: false, full-deletion: true, disappear-after: 0, history-for-new-members: true, welcome: \"\" }"
                ],
                probe: "carol")),
    ]

    /// Pairs of flows racing in one epoch (one `parallel` step): MIP-03 picks the winning commit,
    /// so the outcome leaves the group name out; membership and messages must still be exact.
    static let races: [Flow] = [
        Flow(
            name: "add-x-rename", summary: "alice adds dave while bob renames the group.", withDave: true,
            actions: ["add-members: { by: alice, members: dave }", "rename: { by: bob, to: \(renamed) }"],
            points: [
                published("alice-commit", by: "alice", "add commit"), published("bob-commit", by: "bob", "rename commit"),
                welcome(to: inviteeInbox),
            ],
            outcome: Outcome(members: withDave, name: nil, probe: "dave"),
            finals: commitRefused("alice-commit", outcome: Outcome(members: everyone, name: nil, probe: "carol"), race: true)),
        Flow(
            name: "remove-x-rename", summary: "alice removes carol while bob renames the group.",
            actions: ["remove-members: { by: alice, members: carol }", "rename: { by: bob, to: \(renamed) }"],
            points: [published("alice-commit", by: "alice", "remove commit"), published("bob-commit", by: "bob", "rename commit")],
            outcome: Outcome(members: withoutCarol, removed: ["carol"], name: nil, probe: "bob"),
            finals: commitRefused("alice-commit", outcome: Outcome(members: everyone, name: nil, probe: "carol"), race: true)),
        Flow(
            name: "leave-x-rename", summary: "carol leaves while alice renames the group.",
            actions: ["leave: { by: carol }", "rename: { by: alice, to: \(renamed) }"],
            points: [
                published("carol-proposal", by: "carol", "SelfRemove proposal"), published("alice-commit", by: "alice", "rename commit"),
            ],
            outcome: Outcome(members: withoutCarol, removed: ["carol"], name: nil, probe: "bob"),
            mdkDefects: each(
                [
                    "alice-commit-delay", "alice-commit-drop", "alice-commit-duplicate", "alice-commit-reorder", "alice-commit-withhold-ok",
                    "alice-commit-restart", "carol-proposal-duplicate", "carol-proposal-withhold-ok", "carol-proposal-restart",
                ], mdkKeepsNoRollbackProposal
            ).merging(each(["alice-commit-sender-partitioned"], mdkRefusesCommitBeforeProposalAfterPartition)) { $1 }),
        Flow(
            name: "add-x-remove", summary: "alice adds dave while bob removes carol.", withDave: true,
            actions: ["add-members: { by: alice, members: dave }", "remove-members: { by: bob, members: carol }"],
            points: [
                published("alice-commit", by: "alice", "add commit"), published("bob-commit", by: "bob", "remove commit"),
                welcome(to: inviteeInbox),
            ],
            outcome: Outcome(members: ["alice", "bob", "dave"], removed: ["carol"], name: nil, probe: "dave"),
            finals: commitRefused(
                "alice-commit", outcome: Outcome(members: withoutCarol, removed: ["carol"], name: nil, probe: "bob"),
                race: true, faults: [.reject, .senderPartitioned]
            )
            .merging(
                commitRefused(
                    "alice-commit", outcome: Outcome(members: everyone, name: nil, probe: "carol"), race: true, faults: [.relayDown])
            ) { $1 }
            .merging(
                commitRefused(
                    "bob-commit", outcome: Outcome(members: withDave, name: nil, probe: "dave"), race: true,
                    faults: [.reject, .senderPartitioned])
            ) { $1 }),
        Flow(
            name: "send-x-rename", summary: "carol sends a message while alice renames the group.",
            actions: ["send: { by: carol, text: hello }", "rename: { by: alice, to: \(renamed) }"],
            points: [
                published("carol-message", by: "carol", "application message"), published("alice-commit", by: "alice", "rename commit"),
            ],
            outcome: Outcome(members: everyone, name: nil, messages: ["carol: hello"], probe: "bob")),
    ]
}
