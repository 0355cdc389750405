// The machine-readable report (`--json`), documented in docs/report-format.md.
import Foundation

package enum JSONReport {
    /// The report format version; bump it on any incompatible change.
    package static let formatVersion = 1

    struct Document: Codable {
        let format: Int
        let tool: String
        let summary: Summary
        /// Wall-clock seconds of all runs together.
        let seconds: Double
        let runs: [TimedRun]
    }

    struct Summary: Codable {
        let passed: Int, failed: Int, errors: Int, unsupported: Int, info: Int, knownDefects: Int, unexpectedPasses: Int
    }

    /// The report for `runs` as pretty-printed JSON with sorted keys.
    package static func json(_ timed: [TimedRun], toolVersion: String) throws -> String {
        let s = RunSummary(timed.map(\.run))
        let document = Document(
            format: formatVersion, tool: "marmot-conform \(toolVersion)",
            summary: Summary(passed: s[.pass], failed: s[.fail], errors: s[.error], unsupported: s[.unsupported], info: s[.info],
                             knownDefects: s[.knownDefect], unexpectedPasses: s[.unexpectedPass]),
            seconds: timed.reduce(0) { $0 + $1.seconds }, runs: timed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }
}
