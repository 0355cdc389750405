// The table the fault matrix is generated from: every flow, its publish and delivery points, and
// the state after healing. Adding a flow or a point is one entry here (docs/fault-matrix.md).
extension FaultMatrix {
    // MARK: - Points

    /// A member's kind-445 event as it leaves for the group relay (commit, proposal, message).
    static func published(_ name: String, by member: String, _ what: String) -> Point {
        Point(name: name, summary: "\(member)'s \(what) (kind 445) as published", member: member, kind: 445, direction: .toRelay, relay: "group")
    }

    /// The flow's first kind-445 event as the group relay delivers it to `member`.
    static func delivered(_ name: String, to member: String, _ what: String) -> Point {
        Point(name: name, summary: "the \(what) (kind 445) as delivered to \(member)", member: member, kind: 445, direction: .toMember, relay: "group")
    }

    /// The welcome gift wrap (kind 1059) as the inviter publishes it to the invitee's inbox.
    static func welcome(to inbox: String) -> Point {
        Point(name: "welcome", summary: "alice's welcome gift wrap (kind 1059) as published", member: "alice", kind: 1059, direction: .toRelay, relay: inbox)
    }

    /// The welcome gift wrap as the inbox relay delivers it to the invitee.
    static func welcomeDelivered(to member: String, inbox: String) -> Point {
        Point(name: "welcome-at-invitee", summary: "the welcome gift wrap (kind 1059) as delivered to \(member)", member: member, kind: 1059, direction: .toMember, relay: inbox)
    }

    /// The invitee's key package (kind 30443) as the key-package relay answers the inviter's fetch.
    static let keyPackage = Point(
        name: "key-package", summary: "the invitee's key package (kind 30443) as fetched by alice", member: "alice",
        kind: 30443, direction: .toMember, relay: "disc")

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
            outcome: Outcome(members: everyone, probe: "carol")),
        Flow(
            name: "add", summary: "alice adds dave.", withDave: true,
            actions: ["add-members: { by: alice, members: dave }"],
            points: [keyPackage, published("commit", by: "alice", "add commit"), delivered("commit-at-peer", to: "carol", "add commit"),
                     welcome(to: inviteeInbox), welcomeDelivered(to: "dave", inbox: inviteeInbox)],
            outcome: Outcome(members: withDave, probe: "dave")),
        Flow(
            name: "remove", summary: "alice removes carol.",
            actions: ["remove-members: { by: alice, members: carol }"],
            points: [published("commit", by: "alice", "remove commit"), delivered("commit-at-peer", to: "bob", "remove commit")],
            outcome: Outcome(members: withoutCarol, removed: ["carol"], probe: "bob")),
        Flow(
            name: "rename", summary: "alice renames the group.",
            actions: ["rename: { by: alice, to: \(renamed) }"],
            points: [published("commit", by: "alice", "rename commit"), delivered("commit-at-peer", to: "carol", "rename commit")],
            outcome: Outcome(members: everyone, name: renamed, probe: "carol")),
        Flow(
            name: "leave", summary: "carol (not an admin) leaves; an admin commits her SelfRemove proposal.",
            actions: ["leave: { by: carol }"],
            points: [published("proposal", by: "carol", "SelfRemove proposal"), delivered("proposal-at-peer", to: "alice", "SelfRemove proposal")],
            outcome: Outcome(members: withoutCarol, removed: ["carol"], probe: "bob")),
        Flow(
            name: "send", summary: "carol sends a message.",
            actions: ["send: { by: carol, text: hello }"],
            points: [published("message", by: "carol", "application message"), delivered("message-at-peer", to: "bob", "application message")],
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
                chatFields: ["preferences: { reactions: false, full-deletion: true, disappear-after: 0, history-for-new-members: true, welcome: \"\" }"],
                probe: "carol")),
    ]

    /// Pairs of flows racing in one epoch (one `parallel` step): MIP-03 picks the winning commit,
    /// so the outcome leaves the group name out; membership and messages must still be exact.
    static let races: [Flow] = [
        Flow(
            name: "add-x-rename", summary: "alice adds dave while bob renames the group.", withDave: true,
            actions: ["add-members: { by: alice, members: dave }", "rename: { by: bob, to: \(renamed) }"],
            points: [published("alice-commit", by: "alice", "add commit"), published("bob-commit", by: "bob", "rename commit"),
                     welcome(to: inviteeInbox)],
            outcome: Outcome(members: withDave, name: nil, probe: "dave")),
        Flow(
            name: "remove-x-rename", summary: "alice removes carol while bob renames the group.",
            actions: ["remove-members: { by: alice, members: carol }", "rename: { by: bob, to: \(renamed) }"],
            points: [published("alice-commit", by: "alice", "remove commit"), published("bob-commit", by: "bob", "rename commit")],
            outcome: Outcome(members: withoutCarol, removed: ["carol"], name: nil, probe: "bob")),
        Flow(
            name: "leave-x-rename", summary: "carol leaves while alice renames the group.",
            actions: ["leave: { by: carol }", "rename: { by: alice, to: \(renamed) }"],
            points: [published("carol-proposal", by: "carol", "SelfRemove proposal"), published("alice-commit", by: "alice", "rename commit")],
            outcome: Outcome(members: withoutCarol, removed: ["carol"], name: nil, probe: "bob")),
        Flow(
            name: "add-x-remove", summary: "alice adds dave while bob removes carol.", withDave: true,
            actions: ["add-members: { by: alice, members: dave }", "remove-members: { by: bob, members: carol }"],
            points: [published("alice-commit", by: "alice", "add commit"), published("bob-commit", by: "bob", "remove commit"),
                     welcome(to: inviteeInbox)],
            outcome: Outcome(members: ["alice", "bob", "dave"], removed: ["carol"], name: nil, probe: "dave")),
        Flow(
            name: "send-x-rename", summary: "carol sends a message while alice renames the group.",
            actions: ["send: { by: carol, text: hello }", "rename: { by: alice, to: \(renamed) }"],
            points: [published("carol-message", by: "carol", "application message"), published("alice-commit", by: "alice", "rename commit")],
            outcome: Outcome(members: everyone, name: nil, messages: ["carol: hello"], probe: "bob")),
    ]
}
