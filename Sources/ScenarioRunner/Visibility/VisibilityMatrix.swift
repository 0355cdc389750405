// The visibility matrix: one scenario per reason a message is hidden (GroupCore's `HiddenReason`),
// each asserting every view a message can show in (GroupCore's `MessageView`): the open chat, the
// chat list's preview line and order, the unread count, notifications and the history sent to a
// joiner. Generated from the table below into scenarios/visibility/ with the report
// docs/visibility-matrix.md; a test keeps both up to date, and `marmot-conform visibility-matrix`
// rewrites them. The twin (VisibilityMatrixTests) makes one view skip the rule and sees the matrix fail.
import GroupCore

package enum VisibilityMatrix {
    /// What a cell expects beyond "the hidden message shows nowhere in this view".
    package enum Cell: Sendable, Equatable {
        /// The message is hidden in this view.
        case hidden
        /// The view cannot show the message for a reason of its own, said here (the scenario still
        /// asserts what the view shows).
        case notApplicable(String)
    }

    /// One reason a message is hidden, and how a scenario brings it about for dave's message
    /// `hidden` (written after every other message of the scenario).
    package struct Row: Sendable {
        package let reason: HiddenReason
        /// The scenario's file name.
        package let name: String
        package let summary: String
        /// The steps that write `hidden` and hide it, ending quiescent.
        let steps: [String]
        /// Cells that are not `hidden`.
        let exceptions: [MessageView: Cell]

        package func cell(_ view: MessageView) -> Cell { exceptions[view] ?? .hidden }
    }

    /// The table: every reason a message is hidden that a scenario can bring about on its own.
    /// `historyDropped`, `deletedMessage` and `purgedSender` are the same rule read from other
    /// control messages (`scenarios/roles/delete-group.yaml`, `roles/matrix/delete-message.yaml`,
    /// `roles/remove-with-messages.yaml` assert them).
    package static let rows: [Row] = [
        Row(
            reason: .deletedGroup, name: "deleted-group",
            summary: "dave writes after alice deleted the group (he hears of it late): nobody is shown it.",
            steps: [
                "  - name: deletion late at dave",
                "    fault: { apply: hold, member: dave, kind: 445, direction: to-member, nth: 1 }",
                "  - delete-group: { by: alice, keep-history: true, group: Vis }",
                "  - deliver: all",
                "  - advance: { by: 2s }",
                "  - send: { by: dave, text: hidden, group: Vis }",
                "  - deliver: all",
                "  - release: { hold: deletion late at dave }",
                "  - deliver: all",
            ],
            exceptions: [.joinerHistory: .notApplicable("a deleted group takes no members (`core.chatDeleted`), so no joiner")]),
        Row(
            reason: .blockedSender, name: "blocked-sender",
            summary: "alice blocks dave, then dave writes: nobody is shown it.",
            steps: [
                "  - block: { by: alice, member: dave, group: Vis }",
                "  - deliver: all",
                "  - advance: { by: 2s }",
                "  - send: { by: dave, text: hidden, group: Vis }",
                "  - deliver: all",
            ],
            exceptions: [:]),
        Row(
            reason: .forbiddenMedia, name: "forbidden-media",
            summary: "alice switches files off, then dave sends a file anyway (forged): nobody is shown it.",
            steps: [
                "  - set-preferences: { by: alice, files: false, group: Vis }",
                "  - deliver: all",
                "  - advance: { by: 2s }",
                "  - send-media: { by: dave, kind: file, text: hidden, group: Vis, forged: true }",
                "  - deliver: all",
            ],
            exceptions: [:]),
        Row(
            reason: .expired, name: "expired",
            summary: "messages disappear after 10 s; dave's, written offline, arrives 30 s later: nobody is shown it.",
            steps: [
                "  - set-preferences: { by: alice, disappear-after: 10s, group: Vis }",
                "  - deliver: all",
                "  - advance: { by: 2s }",
                "  - fault: { apply: partition, member: dave }",
                "  - send: { by: dave, text: hidden, group: Vis }",
                "  - advance: { by: 30s }",
                "  - fault: { apply: heal, member: dave }",
                "  - deliver: all",
            ],
            exceptions: [:]),
        Row(
            reason: .senderNotAllowed, name: "invalidated-by-convergence",
            summary:
                "alice makes dave an observer; dave, frank and gina read that late, after dave's message: the fold judges it again and hides it.",
            steps: [
                "  - name: role late at dave",
                "    fault: { apply: hold, member: dave, kind: 445, direction: to-member, nth: 1 }",
                "  - name: role late at frank",
                "    fault: { apply: hold, member: frank, kind: 445, direction: to-member, nth: 1 }",
                "  - name: role late at gina",
                "    fault: { apply: hold, member: gina, kind: 445, direction: to-member, nth: 1 }",
                "  - set-role: { by: alice, member: dave, role: observer, group: Vis }",
                "  - deliver: all",
                "  - advance: { by: 2s }",
                "  - send: { by: dave, text: hidden, group: Vis }",
                "  - deliver: all",
                "  - release: { hold: role late at dave }",
                "  - release: { hold: role late at frank }",
                "  - release: { hold: role late at gina }",
                "  - deliver: all",
            ],
            exceptions: [
                .notifications: .notApplicable(
                    "gina was notified while the message was still valid; an intent once raised is not withdrawn")
            ]),
    ]

    /// Every generated file: one scenario per row, and the report.
    package static func files() -> [GeneratedFile] {
        rows.map { GeneratedFile(path: "scenarios/visibility/\($0.name).yaml", text: scenario($0)) }
            + [GeneratedFile(path: "docs/visibility-matrix.md", text: report())]
    }

    // MARK: - Scenarios

    /// Who shows which view: frank keeps the chat open; gina never opens it and holds a second
    /// chat (Other) whose last message is older than dave's; hank joins after it.
    static func scenario(_ row: Row) -> String {
        let joins = row.cell(.joinerHistory) == .hidden
        var lines = [
            "# GENERATED by `marmot-conform visibility-matrix` from Sources/ScenarioRunner/Visibility/VisibilityMatrix.swift:",
            "# do not edit. \(row.summary)",
            "# Every view asks GroupCore's one visibility rule (reason `\(row.reason.rawValue)`): frank's open chat,",
            "# gina's preview line, chat order (Other, whose last message is older than dave's, stays first),",
            "# unread count and notifications\(joins ? ", and the history alice sends hank when he joins" : "").",
            "name: visibility \(row.name)",
            "clauses: [\"GroupCore visibility rule\", \"GroupCore permission table\"]",
            "members:",
            "  - { label: alice }",
            "  - { label: dave }",
            "  - { label: frank }",
            "  - { label: gina }",
        ]
        if joins { lines.append("  - { label: hank }") }
        lines += [
            "steps:",
            "  - deliver: all",
            "  - create-group: { by: alice, with: [dave, frank, gina], name: Vis }",
            "  - deliver: all",
            "  - advance: { by: 2s }",
            "  - create-group: { by: gina, with: [frank], name: Other }",
            "  - deliver: all",
            "  - advance: { by: 2s }",
            "  - open-chat: { by: frank, group: Vis }",
            "  - send: { by: alice, text: shown, group: Vis }",
            "  - deliver: all",
            "  - advance: { by: 2s }",
            "  - send: { by: frank, text: other, group: Other }",
            "  - deliver: all",
            "  - advance: { by: 2s }",
        ]
        lines += row.steps
        if joins {
            lines += [
                "  - advance: { by: 2s }",
                "  - add-members: { by: alice, members: hank, group: Vis }",
                "  - deliver: all",
            ]
        }
        let notified = row.cell(.notifications) == .hidden ? ["other", "shown"] : ["hidden", "other", "shown"]
        lines += [
            "expect:",
            "  members:",
            "    frank:",
            "      open-chat: { name: Vis, messages: [\"alice: shown\"] }",
            "    gina:",
            "      chat-order: [Other, Vis]",
            "      chats: [{ name: Other }, { name: Vis, last-message: shown, unread: 1 }]",
            "      notifications: [\(notified.map { "{ body: \($0) }" }.joined(separator: ", "))]",
        ]
        if joins {
            lines += [
                "    hank:",
                "      chats: [{ name: Vis, history: [\"alice: shown\"] }]",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Report

    static func report() -> String {
        var lines = [
            "# Visibility matrix",
            "",
            "GENERATED by `marmot-conform visibility-matrix` from `Sources/ScenarioRunner/Visibility/VisibilityMatrix.swift`;",
            "do not edit. GroupCore decides once, per message, whether it is shown (`State/Visibility.swift`:",
            "the role book's fold gives each hidden message its `HiddenReason`), and every view asks that one",
            "rule (`Visibility.isShown(_:in:)`). Each row is a scenario under `scenarios/visibility/` in which",
            "dave's message `hidden` is hidden for the row's reason; each cell is what the scenario asserts of",
            "one view: frank keeps the chat open (open chat), gina never opens it (preview line, chat order,",
            "unread count, notifications), hank joins afterwards (the history alice sends him).",
            "",
            "| reason | " + MessageView.allCases.map(\.rawValue).joined(separator: " | ") + " | scenario |",
            "|---|" + MessageView.allCases.map { _ in "---|" }.joined() + "---|",
        ]
        var notes: [String] = []
        for row in rows {
            let cells = MessageView.allCases.map { view -> String in
                switch row.cell(view) {
                case .hidden: return "hidden"
                case .notApplicable(let why):
                    notes.append("- `\(row.reason.rawValue)` × `\(view.rawValue)`: \(why).")
                    return "n/a (\(notes.count))"
                }
            }
            lines.append(
                "| `\(row.reason.rawValue)` | " + cells.joined(separator: " | ") + " | `scenarios/visibility/\(row.name).yaml` |")
        }
        lines += ["", "Cells marked n/a, in order:", ""] + notes
        lines += [
            "",
            "Reasons without a row of their own are the same rule read from other control messages:",
            "`history-dropped` (`scenarios/roles/delete-group.yaml`), `deleted-message`",
            "(`scenarios/roles/matrix/delete-message.yaml`), `purged-sender` (`scenarios/roles/remove-with-messages.yaml`).",
            "The twin (`VisibilityMatrixTests`) lets one view at a time skip the rule",
            "(`CoreConfiguration.Behaviour.bypassedVisibilityViews`) and checks that a matrix scenario fails.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
