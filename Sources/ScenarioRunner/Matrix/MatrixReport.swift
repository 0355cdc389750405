// The interop matrix as text, Markdown and JSON (docs/engines.md, "The interop matrix"):
// rows are scenarios, columns assignments of engines to members, cells verdicts.
import Foundation

/// One scenario run under one assignment.
package struct MatrixCell: Sendable, Codable, Hashable {
    package let scenario: String
    package let file: String
    /// One engine per free member, in declaration order (empty: every member pins its engine).
    package let assignment: [String]
    /// The run's engine name (`swift`, `mdk`, `mixed` when the assignment is mixed's, else `matrix:…`).
    package let engine: String
    package let verdict: Verdict
    /// The checks that failed or were excused, for the reader.
    package let checks: [String]
    package let reproduce: String

    package init(run: ScenarioRun, assignment: [String]) {
        scenario = run.scenario
        file = run.file
        self.assignment = assignment
        engine = run.engine
        // A run whose only notes are `info` (a matrix cell has no pinned fingerprint) passed; the
        // runs' own report (--json) keeps the notes.
        verdict = run.verdict == .info ? .pass : run.verdict
        checks =
            run.checks.filter { $0.verdict != .pass && $0.verdict != .info }.map { "\($0.verdict.rawValue): \($0.check)" }
            + (run.notRun.map { ["unsupported: \($0)"] } ?? [])
        reproduce = run.reproduce
    }
}

/// A whole matrix: the engines, how each scenario's columns were chosen, and the cells.
package struct MatrixReport: Sendable, Codable {
    package struct Row: Sendable, Codable {
        package let scenario: String
        package let file: String
        package let members: [String]
        package let coverage: InteropMatrix.Coverage
        package var cells: [MatrixCell]

        package init(scenario: String, file: String, members: [String], coverage: InteropMatrix.Coverage, cells: [MatrixCell]) {
            self.scenario = scenario
            self.file = file
            self.members = members
            self.coverage = coverage
            self.cells = cells
        }
    }

    package let engines: [String]
    package let seed: UInt64
    package var rows: [Row]

    package init(engines: [String], seed: UInt64, rows: [Row] = []) {
        self.engines = engines
        self.seed = seed
        self.rows = rows
    }

    /// Whether every cell passed or is excused (known defect, unsupported, unexpected pass).
    package var holds: Bool { !rows.flatMap(\.cells).contains { $0.verdict.failsTheRun } }

    /// Every column label in first-seen order: an assignment written `swift·mdk·mdk`.
    package var columns: [String] {
        var seen: [String] = []
        for cell in rows.flatMap(\.cells) where !seen.contains(Self.label(cell.assignment)) { seen.append(Self.label(cell.assignment)) }
        return seen
    }

    package static func label(_ assignment: [String]) -> String { assignment.isEmpty ? "(pinned)" : assignment.joined(separator: "·") }

    static func mark(_ verdict: Verdict?) -> String {
        switch verdict {
        case nil: "–"
        case .pass?: "pass"
        case .fail?: "FAIL"
        case .error?: "ERROR"
        case let other?: other.rawValue
        }
    }

    /// The matrix for a terminal: one block per scenario (its columns differ with its member count).
    package var text: String {
        var lines = [
            "interop matrix over \(engines.joined(separator: ", ")) (seed \(seed)); columns: one engine per free member, in declaration order"
        ]
        for row in rows {
            lines.append(
                "\(row.file) [\(row.members.joined(separator: ", "))]: \(row.cells.count) assignment(s), \(Self.coverageText(row.coverage))"
            )
            for cell in row.cells {
                lines.append(
                    "  \(Self.mark(cell.verdict).padding(toLength: 14, withPad: " ", startingAt: 0)) \(Self.label(cell.assignment))")
            }
        }
        let cells = rows.flatMap(\.cells)
        let counts = Dictionary(grouping: cells, by: \.verdict).mapValues(\.count).sorted { $0.key.rawValue < $1.key.rawValue }
        lines.append("\(cells.count) cell(s): " + counts.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    static func coverageText(_ coverage: InteropMatrix.Coverage) -> String {
        switch coverage {
        case .all: "all assignments"
        case .pairwise: "a pairwise-covering set (every two members see every pair of engines)"
        }
    }

    /// Markdown: one table, rows scenarios, columns every assignment seen (– where a scenario has no such column).
    package var markdown: String {
        let columns = columns
        var lines = [
            "# Interop matrix", "",
            "Engines: \(engines.joined(separator: ", ")); seed \(seed). A column assigns one engine to each member without an `engine:` of its own, in declaration order.",
            "",
            "| scenario | coverage | " + columns.map { "`\($0)`" }.joined(separator: " | ") + " |",
            "|---|---|" + String(repeating: "---|", count: columns.count),
        ]
        for row in rows {
            let cells = columns.map { column in Self.mark(row.cells.first { Self.label($0.assignment) == column }?.verdict) }
            lines.append("| \(row.file) | \(row.coverage.rawValue) | " + cells.joined(separator: " | ") + " |")
        }
        let notable = rows.flatMap(\.cells).filter { $0.verdict != .pass }
        if !notable.isEmpty {
            lines += ["", "## Cells other than pass", ""]
            for cell in notable {
                lines.append(
                    "- \(cell.file) `\(Self.label(cell.assignment))`: \(cell.verdict.rawValue) (\(cell.checks.joined(separator: "; "))) — `\(cell.reproduce)`"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
