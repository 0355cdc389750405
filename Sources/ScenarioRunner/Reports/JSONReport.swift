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
        /// Present only in a shard's report (`run --shard K/N`); `merge-reports` drops it.
        let shard: ShardRecord?
    }

    struct Summary: Codable {
        let passed: Int, failed: Int, errors: Int, unsupported: Int, info: Int, knownDefects: Int, unexpectedPasses: Int
    }

    /// The report for `runs` as pretty-printed JSON with sorted keys.
    package static func json(_ timed: [TimedRun], toolVersion: String, shard: ShardRecord? = nil) throws -> String {
        let s = RunSummary(timed.map(\.run))
        let document = Document(
            format: formatVersion, tool: "marmot-conform \(toolVersion)",
            summary: Summary(passed: s[.pass], failed: s[.fail], errors: s[.error], unsupported: s[.unsupported], info: s[.info],
                             knownDefects: s[.knownDefect], unexpectedPasses: s[.unexpectedPass]),
            seconds: timed.reduce(0) { $0 + $1.seconds }, runs: timed, shard: shard)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// A report read back (`merge-reports`): its tool, runs and shard record.
    package struct Parsed: Sendable {
        package let tool: String
        package let runs: [TimedRun]
        package let shard: ShardRecord?
    }

    /// Reads a report written by `json(_:toolVersion:shard:)`; throws when it is not one (or of another format).
    package static func parse(_ data: Data) throws -> Parsed {
        let document = try JSONDecoder().decode(Document.self, from: data)
        guard document.format == formatVersion else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "report format \(document.format), expected \(formatVersion)"))
        }
        return Parsed(tool: document.tool, runs: document.runs, shard: document.shard)
    }
}

/// Which part of a whole run a shard's report holds: shard `index` of `count` (1-based), of a run of
/// `units` scenario × seed units dealt round-robin (unit i to shard i mod count + 1).
package struct ShardRecord: Codable, Hashable, Sendable {
    package let index: Int
    package let count: Int
    package let units: Int

    package init(index: Int, count: Int, units: Int) {
        self.index = index
        self.count = count
        self.units = units
    }
}
