// The restart matrix (marmot-protocol/marmot, foundation/conformance.md, "Crash and restart
// scenarios"): one scenario per crash point × flow, generated from the table below. Each arms one
// crash point (EngineInterface/CrashPoint.swift) on one member before the flow's action; the
// runner pairs it with its uninterrupted reference (the same scenario without the `crash` step, the
// same seed, the same later actions) and passes the cell when every member's canonical snapshot
// after required work equals the reference's (RestartReference.swift). Checked in under
// scenarios/restart-matrix/ with the report docs/restart-matrix.md; a test keeps both up to date,
// and `marmot-conform restart-matrix` rewrites them.
package enum RestartMatrix {
    package static let folder = "scenarios/restart-matrix"
    static let report = "docs/restart-matrix.md"
    /// How long a crashed member stays down.
    static let down = "5s"

    /// One flow: the setup that precedes the crash, the action the crash interrupts, and the
    /// (member, crash point) cells the flow reaches.
    struct Flow {
        let name: String
        let summary: String
        let setup: [String]
        let action: [String]
        let cells: [(member: String, point: String)]
        /// Boundary 8: what the crash leaves of the damaged group's durable record (`corrupt`,
        /// `missing`), and the group (by name); nil: the store is left as the crash left it.
        var damage: (kind: String, group: String)? = nil
        /// The profiles the flow runs under (`profiles:`); nil: every profile.
        var profiles: String? = nil
        /// False when the outcome depends on the seed (which commit wins a race): no stored vector.
        var storesVector = true
        /// Cells whose member is found at run time: the cell's name for it, and the members the
        /// crash step arms (the first of them to reach the point dies).
        var runTimeMembers: [String: [String]] = [:]
    }

    static let members = ["alice", "bob", "carol", "dave"]
    static let group = ["  - create-group: { by: alice, with: [bob, carol], admins: [bob], name: Team }", "  - deliver: all"]

    /// The committer's own points on a commit it publishes (boundaries 1, 2, 3, 4, 5).
    static let committer = [
        "prepared-not-published", "acknowledgement-uncertain", "confirmed-not-merged", "applied-not-derived", "settle-timer-fired",
    ]
    /// A receiver's points on a commit it applies (boundaries 3 and 4), inside the engine included.
    static let receiver = ["received-not-applied", "engine-unsaved", "engine-saved-unreported", "applied-not-derived"]

    /// Boundary 8: bob is in two groups; his record of Team is damaged while he is down, and alice
    /// goes on in both. The later inputs of Team must be deferred as `missing_history`, and Side
    /// must go on exactly as in the reference.
    static let twoGroups = group + ["  - create-group: { by: alice, with: [bob], name: Side }", "  - deliver: all"]
    static let damageAction = [
        "  - rename: { by: alice, to: Renamed, group: Team }", "  - deliver: all",
        "  - send: { by: alice, text: deferred, group: Renamed }",
        "  - send: { by: alice, text: kept, group: Side }", "  - rename: { by: alice, to: Aside, group: Side }",
    ]

    /// Boundary 7: alice's publishes reach the relay 3 s late and bob commits a second after her,
    /// so everyone meets bob's commit first and applies it; then alice's arrives, which MIP-03
    /// selects (the earlier created_at), and carol and bob switch branch. Deterministic on every
    /// seed: the order is by time, not by event id (legacy profile: the current one orders
    /// competing commits by committer account key, drawn from the seed).
    static let lateWinner = group + ["  - fault: { apply: delay, member: alice, relay: group, kind: 445, for: 3s }"]
    static func lateWinnerRace(_ alice: String, then more: [String] = []) -> [String] {
        [alice, "  - advance: { by: 1s }", "  - rename: { by: bob, to: Beta }"] + more
    }

    /// Boundary 7, a winning branch that disbands (current profile: competing commits are ranked
    /// by committer account key, drawn from the seed). Two groups race at once with the roles
    /// swapped: in Team alice disbands and bob renames, in Other bob disbands and alice renames,
    /// each disband reaching the relay 3 s late (only the first publish: `nth: 1`). Whichever of
    /// alice and bob has the smaller key wins both of its races, so on every seed exactly one
    /// group's disband wins: carol and that group's renamer applied the rename first and switch.
    static let disbandRace =
        twoAdminGroups + [
            "  - fault: { apply: delay, member: alice, relay: group, kind: 445, for: 3s, nth: 1 }",
            "  - fault: { apply: delay, member: bob, relay: group, kind: 445, for: 3s, nth: 1 }",
        ]
    static let twoAdminGroups =
        group + ["  - create-group: { by: bob, with: [alice, carol], admins: [alice], name: Other }", "  - deliver: all"]
    static let disbandAction = [
        "  - disband: { by: alice, group: Team }", "  - disband: { by: bob, group: Other }", "  - advance: { by: 1s }",
        "  - rename: { by: bob, to: Beta, group: Team }", "  - rename: { by: alice, to: Alpha, group: Other }",
    ]

    static let flows: [Flow] = [
        Flow(
            name: "create", summary: "alice creates the group with bob and carol; the invitee accepts the welcome",
            setup: [], action: group,
            cells: [("alice", "received-not-applied"), ("alice", "applied-not-derived")]),
        Flow(
            name: "add", summary: "alice adds dave",
            setup: group, action: ["  - add-members: { by: alice, members: [dave] }"],
            cells: committer.map { ("alice", $0) } + receiver.map { ("bob", $0) }),
        Flow(
            name: "remove", summary: "alice removes carol",
            setup: group, action: ["  - remove-members: { by: alice, members: [carol] }"],
            cells: committer.map { ("alice", $0) } + receiver.map { ("bob", $0) }),
        Flow(
            name: "rename", summary: "alice renames the group",
            setup: group, action: ["  - rename: { by: alice, to: Renamed }"],
            cells: committer.map { ("alice", $0) } + receiver.map { ("carol", $0) }),
        Flow(
            name: "leave", summary: "carol (not an admin) leaves; an admin commits her removal",
            setup: group, action: ["  - leave: { by: carol }"],
            cells: [("carol", "leaving-not-published")]),
        Flow(
            name: "send", summary: "bob writes to the group",
            setup: group, action: ["  - send: { by: bob, text: hello }"],
            cells: [("carol", "received-not-applied"), ("carol", "engine-unsaved"), ("carol", "engine-saved-unreported")]),
        Flow(
            name: "delete", summary: "alice deletes the group for everyone",
            setup: group, action: ["  - delete-group: { by: alice }"],
            cells: [("bob", "received-not-applied"), ("bob", "engine-unsaved")]),
        Flow(
            name: "race", summary: "alice and bob, both admins, rename at once (MIP-03 picks one)",
            // alice's publishes reach the relay a second late, so bob's commit reaches her while
            // hers waits for its OK: it is held, and processed as a batch after her OK.
            setup: group + ["  - fault: { apply: delay, member: alice, relay: group, kind: 445, for: 1s }"],
            action: ["  - parallel:", "      - rename: { by: alice, to: Alpha }", "      - rename: { by: bob, to: Beta }"],
            cells: [("alice", "held-batch-partial")]),
        Flow(
            name: "catch-up", summary: "carol is offline while alice renames twice; she catches up on healing",
            setup: group + [
                "  - fault: { apply: partition, member: carol }", "  - rename: { by: alice, to: First }", "  - deliver: all",
                "  - rename: { by: alice, to: Second }", "  - deliver: all",
            ],
            action: ["  - fault: { apply: heal, member: carol }"],
            cells: [("carol", "received-not-applied"), ("carol", "engine-unsaved"), ("carol", "applied-not-derived")]),
        Flow(
            name: "switch", summary: "alice and bob, both admins, rename a second apart; alice's earlier commit arrives late and wins",
            setup: lateWinner, action: lateWinnerRace("  - rename: { by: alice, to: Alpha }"),
            cells: [("carol", "branch-switch-unsaved"), ("bob", "branch-switch-unsaved"), ("carol", "received-not-applied")],
            // MIP-03's order by created_at: the current profile orders by committer account key.
            profiles: "[legacy]"),
        Flow(
            name: "switch-message",
            summary:
                "as in switch, and bob writes on his branch before alice's earlier commit arrives: the switch invalidates the message and bob sends it again in the winning epoch",
            setup: lateWinner,
            action: lateWinnerRace(
                "  - rename: { by: alice, to: Alpha }",
                then: ["  - advance: { by: 1s }", "  - send: { by: bob, text: on-the-losing-branch }"]),
            cells: [("carol", "branch-switch-unsaved"), ("bob", "branch-switch-unsaved"), ("carol", "received-not-applied")],
            profiles: "[legacy]"),
        Flow(
            name: "disband-switch",
            summary:
                "in Team alice disbands while bob renames, in Other bob disbands while alice renames, each disband 3 s late; in the group whose disband wins (committer key order), carol and the renamer switch to it",
            setup: disbandRace, action: disbandAction,
            cells: [("carol", "branch-switch-unsaved"), ("renamer", "branch-switch-unsaved")],
            // Group lifecycle (disband) exists on the current profile only; which group's disband
            // wins is drawn by the seed, so no outcome is stored.
            profiles: "[current]", storesVector: false, runTimeMembers: ["renamer": ["alice", "bob"]]),
        Flow(
            name: "corrupt-record", summary: "bob's record of Team is corrupt when he starts again; his other group, Side, goes on",
            setup: twoGroups, action: damageAction, cells: [("bob", "received-not-applied"), ("bob", "applied-not-derived")],
            damage: ("corrupt", "Team")),
        Flow(
            name: "missing-record", summary: "bob's record of Team is missing when he starts again; his other group, Side, goes on",
            setup: twoGroups, action: damageAction, cells: [("bob", "received-not-applied"), ("bob", "applied-not-derived")],
            damage: ("missing", "Team")),
    ]

    /// Cells left out of the table, and why (the report lists them: a boundary not covered is
    /// said, never silently missing).
    static let excluded: [(cell: String, why: String)] = [
        (
            "create × the creator or an invitee at or before its own first commit",
            "the restarted member draws fresh randomness (a restarted engine must never replay its earlier stream), so the group it then creates, or the self-update it commits after joining, differs from the reference's by construction: not comparable with an uninterrupted run"
        ),
        (
            "leave × the admin that commits the removal",
            "the same: the removal commit is made after the restart, with fresh randomness"
        ),
        (
            "race × a third member at received-not-applied",
            "in the `race` flow the winner is drawn by the seed (same-instant commits, ordered by id); the `switch` flow orders the two commits by time instead, so its carol cells are the deterministic form of it: the losing commit is `superseded` whether it was applied and replaced (the reference) or met after the winner on catch-up (the restarted run)"
        ),
        (
            "switch-message × bob at applied-not-derived",
            "bob's crash step stands before the race, and the first commit he applies is his own rename, a second before he writes: he is down when the `send` step runs, so the message is never written and nothing of boundary 7 is reached"
        ),
        (
            "disband-switch × the disbander",
            "a disband that loses its race is applied by its own committer before the competitor (its OK comes first) and ends the group there: an engine refuses every later event of an ended group, so the losing disbander never switches (docs/group-core.md, \"Messages of a branch that lost\", says what this leaves open)"
        ),
    ]

    /// One cell's file name (without folder): `<flow>-<member>-<point>.yaml`.
    static func fileName(_ flow: Flow, _ cell: (member: String, point: String)) -> String {
        "\(flow.name)-\(cell.member)-\(cell.point).yaml"
    }

    /// The cells ci/conformance runs on every engine selection (with determinism checked): one per
    /// boundary the app core reaches (1, 2, 3, 8, 9; races at 3 and 7), so MDK members run them too;
    /// kept small, each cell runs twice (its reference) and twice again for determinism.
    static let ciSample = [
        "rename-alice-prepared-not-published", "rename-alice-acknowledgement-uncertain", "send-carol-received-not-applied",
        "leave-carol-leaving-not-published",
        // Boundary 8 (unsupported on an MDK bob: its driver cannot damage its store) and the race
        // at received-not-applied, whose losing commit is `superseded` in both runs.
        "corrupt-record-bob-received-not-applied", "switch-carol-received-not-applied",
        // Boundary 7 with a delivered payload superseded (bob's message, sent again in the winning
        // epoch), and a winning branch that disbands: current profile only, so the gate's current
        // leg runs it (our engine) and the legacy legs find it not applicable.
        "switch-message-carol-received-not-applied", "disband-switch-carol-branch-switch-unsaved",
    ]

    /// Every generated file: one scenario per cell, the report, the CI sample and the marker that
    /// keeps the family out of the default gate (it has its CI line of its own).
    package static func files() -> [GeneratedFile] {
        flows.flatMap { flow in
            flow.cells.map { GeneratedFile(path: "\(folder)/\(fileName(flow, $0))", text: scenario(flow, $0)) }
        } + [
            GeneratedFile(path: report, text: reportText()),
            GeneratedFile(path: "\(folder)/ci-sample.txt", text: ciSample.map { "\(folder)/\($0).yaml" }.joined(separator: "\n") + "\n"),
            GeneratedFile(
                path: "\(folder)/\(RunPlan.separateLineMarker)",
                text: """
                    The restart matrix (docs/restart-matrix.md) is not run whole by the default gate: every cell runs
                    twice (with its uninterrupted reference). ci/conformance runs the sample in ci-sample.txt on every
                    engine selection with determinism checked; the whole family runs by naming it:
                      marmot-conform run scenarios/restart-matrix --engine swift --seeds 1..5

                    """),
        ]
    }

    package static var cellCount: Int { flows.reduce(0) { $0 + $1.cells.count } }

    /// Every cell of the table, with its boundary.
    package static var flowsCells: [(flow: String, member: String, point: String, boundary: Int)] {
        flows.flatMap { flow in flow.cells.map { (flow.name, $0.member, $0.point, boundary(of: $0.point, in: flow)) } }
    }

    /// A cell's boundary: 8 when its flow damages the store, else its crash point's.
    static func boundary(of point: String, in flow: Flow) -> Int { flow.damage == nil ? boundary(of: point) : 8 }

    static func scenario(_ flow: Flow, _ cell: (member: String, point: String)) -> String {
        var lines = [
            "# GENERATED by `marmot-conform restart-matrix` from Sources/ScenarioRunner/Restarts/RestartMatrix.swift:",
            "# do not edit. Flow \(flow.name): \(flow.summary). \(cell.member) dies at crash point \(cell.point)",
            "# and starts again \(down) later; the runner compares every member's canonical snapshot with the",
            "# uninterrupted reference run (this file without its crash step) after required work completes.",
            "name: restart matrix \(flow.name) \(cell.member) \(cell.point)",
            "clauses: [\"MIP-03 Commit Messages\", \"NIP-01 Events\"]",
        ]
        // Which rename wins the race depends on the commits' ids (seeded): no outcome to store.
        if flow.name == "race" || !flow.storesVector { lines.append("vector: false") }
        if let profiles = flow.profiles { lines.append("profiles: \(profiles)") }
        lines.append("members:")
        lines += members.map { "  - { label: \($0) }" }
        lines += ["steps:", "  - deliver: all"] + flow.setup
        let damage = flow.damage.map { ", damage: \($0.kind), group: \($0.group)" } ?? ""
        let member = flow.runTimeMembers[cell.member].map { "[\($0.joined(separator: ", "))]" } ?? cell.member
        lines += ["  - crash: { member: \(member), at: \(cell.point), down: \(down)\(damage) }"] + flow.action
        lines += ["  - deliver: all", "  - advance: { by: 30s }", "  - deliver: all"]
        return lines.joined(separator: "\n") + "\n"
    }

    static func reportText() -> String {
        var lines = [
            "<!-- GENERATED by `marmot-conform restart-matrix` from Sources/ScenarioRunner/Restarts/RestartMatrix.swift: do not edit. -->",
            "# Restart matrix",
            "",
            "One scenario per crash point × flow under `\(folder)/` (\(cellCount) cells). Each arms one crash point",
            "on one member before the flow's action; the member dies there, losing what was not durable, and",
            "starts again \(down) later. The runner pairs each with its uninterrupted reference (the same file",
            "without the `crash` step, same seed, same later actions): a cell passes when the armed point was",
            "reached and every member's canonical snapshot of every group equals the reference's, field by",
            "field (effects as lists: a duplicated or lost effect shows). Crash points and the durability",
            "model: docs/scenarios.md, section Crash points.",
            "",
            "Boundary 7 (selected branch applying): in the `switch` flow alice's rename reaches the relay 3 s",
            "late and bob renames a second after her, so carol and bob apply bob's commit first and then switch",
            "to alice's, which MIP-03 selects by its earlier created_at (on every seed: legacy profile). A",
            "`branch-switch-unsaved` cell dies inside that switch, before the engine's state is written; it",
            "restarts on the losing commit and switches again when the winner reaches it. The commit left",
            "behind is `superseded` in the snapshot's input dispositions, in the reference and after the",
            "restart alike, also when carol dies at `received-not-applied` and meets the winner first; a test",
            "(RestartMatrixTests.switchCellsReallySwitch) fails a switch cell whose snapshots hold none. The",
            "state notification bob's commit gave carol (the name Beta) is the delivered effect the switch",
            "supersedes.",
            "",
            "A switch that supersedes a delivered payload: in `switch-message` bob also writes on his branch",
            "after his commit's OK. Carol reads the message; the switch invalidates it (an `invalidated:`",
            "effect, its event `superseded`), and bob, whose own copy is invalidated too, sends the same",
            "rumor again in the winning epoch, so every member, alice included, shows it once under one",
            "identity (docs/group-core.md, \"Messages of a branch that lost\"). A member that meets the",
            "message only after the winner (carol at `received-not-applied`) finds it opens under the kept",
            "losing branch's key and marks it `superseded` without showing it.",
            "",
            "A winning branch that disbands (`disband-switch`, current profile, whose order of competing",
            "commits is by committer account key, drawn from the seed): two groups race at once with the",
            "roles swapped, so on every seed one group's disband wins and carol and that group's renamer",
            "switch to it. Which member renamed there is known at run time only: the `renamer` cell's crash",
            "step names both (`member: [alice, bob]`): armed on each, the first to reach the point dies and",
            "the other is disarmed (docs/scenarios.md, \"Crash points\").",
            "",
            "Boundary 8 (missing or corrupt material): the `corrupt-record` and `missing-record` cells also leave",
            "the crashed member's record of one group (Team) corrupt or missing when it starts again (`crash: { ...,",
            "damage: corrupt|missing, group: Team }`, done by the member's engine as it is made again). That",
            "group is held to the Unrecoverable outcome instead of the reference: lifecycle `unrecoverable`,",
            "at least one later input, each deferred as `missing_history` and none applied, and the user told",
            "(`core.groupUnrecoverable`); every other group of every member, the member's other group Side",
            "included, must equal the reference. A damaged state file costs that group alone",
            "(StateFileIsolationTests; its files 0600 and directories 0700: StateFilePermissionTests).",
            "",
            "| flow | member | crash point | boundary |",
            "|---|---|---|---|",
        ]
        for flow in flows {
            for cell in flow.cells {
                let member =
                    flow.runTimeMembers[cell.member].map { "\(cell.member) (first of \($0.joined(separator: ", ")) to reach it)" }
                    ?? cell.member
                lines.append("| \(flow.name) | \(member) | `\(cell.point)` | \(boundary(of: cell.point, in: flow)) |")
            }
        }
        lines += ["", "## Not in the table", ""]
        lines += excluded.map { "- **\($0.cell)**: \($0.why)." }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The conformance text's boundary number of a point (the same table as CrashPoint.boundary,
    /// which a test compares).
    package static func boundary(of point: String) -> Int {
        switch point {
        case "prepared-not-published": 1
        case "acknowledgement-uncertain": 2
        case "applied-not-derived": 4
        case "settle-timer-fired": 5
        case "held-batch-partial": 6
        case "branch-switch-unsaved": 7
        case "leaving-not-published": 9
        default: 3
        }
    }
}
