// The machine-readable report (`--json`), documented in docs/report-format.md.
import Foundation

package enum JSONReport {
    /// The report format version; bump it on any incompatible change.
    package static let formatVersion = 1

    package struct Document: Codable, Sendable {
        package let format: Int
        package let tool: String
        package let summary: Summary
        /// Wall-clock seconds of all runs together.
        package let seconds: Double
        package let runs: [TimedRun]
        /// Added in format 1 without a bump (absent in older reports): the spec profile the runs were
        /// judged by, the versions of the engines taking part, and the known-defects ledger entries of
        /// those engines (the certification report lists them with their links).
        package var profile: SpecProfile?
        package var engineVersions: [String: String]?
        package var ledger: [LedgerEntry]?
    }

    package struct Summary: Codable, Sendable {
        let passed: Int, failed: Int, errors: Int, unsupported: Int, info: Int, knownDefects: Int, unexpectedPasses: Int
    }

    /// A known-defects ledger entry as the report carries it.
    package struct LedgerEntry: Codable, Sendable, Hashable {
        package let engine: String, version: String, scenario: String, check: String
        package let clause: Clause
        package let reason: String, link: String, expires: String

        package init(_ defect: KnownDefect) {
            engine = defect.engine
            version = defect.version
            scenario = defect.scenario
            check = defect.check
            clause = defect.clause
            reason = defect.reason
            link = defect.link
            expires = defect.expires
        }
    }

    /// What the runs were judged with, beyond the runs themselves.
    package struct Context: Sendable {
        package var profile: SpecProfile
        package var engineVersions: [String: String]
        package var ledger: DefectLedger

        package init(profile: SpecProfile = .standard, engineVersions: [String: String] = [:], ledger: DefectLedger = DefectLedger(entries: [])) {
            self.profile = profile
            self.engineVersions = engineVersions
            self.ledger = ledger
        }
    }

    /// The report for `runs` as pretty-printed JSON with sorted keys.
    package static func json(_ timed: [TimedRun], toolVersion: String, context: Context = Context()) throws -> String {
        let s = RunSummary(timed.map(\.run))
        let selections = Set(timed.map(\.run.engine))
        var document = Document(
            format: formatVersion, tool: "marmot-conform \(toolVersion)",
            summary: Summary(passed: s[.pass], failed: s[.fail], errors: s[.error], unsupported: s[.unsupported], info: s[.info],
                             knownDefects: s[.knownDefect], unexpectedPasses: s[.unexpectedPass]),
            seconds: timed.reduce(0) { $0 + $1.seconds }, runs: timed)
        document.profile = context.profile
        document.engineVersions = context.engineVersions
        document.ledger = context.ledger.entries.filter { selections.contains($0.engine) }.map(LedgerEntry.init)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }
}
