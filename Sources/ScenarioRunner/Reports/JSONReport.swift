// The machine-readable report (`--json`), documented in docs/report-format.md.
import EngineInterface
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
        /// Present only in a shard's report (`run --shard K/N`); `merge-reports` drops it.
        package var shard: ShardRecord?
        /// Added in format 1 without a bump (absent in older reports): the spec profile the runs were
        /// judged by, the versions of the engines taking part, and the known-defects ledger entries of
        /// those engines (the certification report lists them with their links).
        package var profile: MarmotProfile?
        package var engineVersions: [String: String]?
        package var ledger: [LedgerEntry]?
        /// Added in format 1 without a bump (absent in older reports): the scenarios the run skipped
        /// because they do not apply to its profile (`profiles:`); never counted as passed.
        package var notApplicable: [NotApplicable]?
    }

    /// Run counts by verdict. `info` counts the passing runs that carry notes (a subset of
    /// `passed`): a note never makes a run anything but a pass.
    package struct Summary: Codable, Sendable {
        let passed: Int, failed: Int, errors: Int, unsupported: Int, info: Int, knownDefects: Int, unexpectedPasses: Int
    }

    /// A known-defects ledger entry as the report carries it.
    package struct LedgerEntry: Codable, Sendable, Hashable {
        package let engine: String, version: String, scenario: String, check: String
        package let clause: Clause
        package let reason: String, link: String, expires: String
        /// The seeds the entry is limited to, if any (`seeds:` in the ledger).
        package let seeds: [UInt64]?

        package init(_ defect: KnownDefect) {
            engine = defect.engine
            version = defect.version
            scenario = defect.scenario
            check = defect.check
            clause = defect.clause
            reason = defect.reason
            link = defect.link
            expires = defect.expires
            seeds = defect.seeds?.sorted()
        }
    }

    /// What the runs were judged with, beyond the runs themselves.
    package struct Context: Sendable {
        package var profile: MarmotProfile
        package var engineVersions: [String: String]
        package var ledger: DefectLedger
        /// Which part of a sharded run these runs are (`run --shard K/N`).
        package var shard: ShardRecord?
        /// The scenarios not run because they do not apply to `profile`.
        package var notApplicable: [NotApplicable] = []

        package init(
            profile: MarmotProfile = .standard, engineVersions: [String: String] = [:], ledger: DefectLedger = DefectLedger(entries: []),
            shard: ShardRecord? = nil
        ) {
            self.profile = profile
            self.engineVersions = engineVersions
            self.ledger = ledger
            self.shard = shard
        }
    }

    /// The report for `runs` as pretty-printed JSON with sorted keys.
    package static func json(_ timed: [TimedRun], toolVersion: String, context: Context = Context()) throws -> String {
        let s = RunSummary(timed.map(\.run))
        let selections = Set(timed.map(\.run.engine))
        var document = Document(
            format: formatVersion, tool: "marmot-conform \(toolVersion)",
            summary: Summary(
                passed: s[.pass], failed: s[.fail], errors: s[.error], unsupported: s[.unsupported], info: s.passesWithNotes,
                knownDefects: s[.knownDefect], unexpectedPasses: s[.unexpectedPass]),
            seconds: timed.reduce(0) { $0 + $1.seconds }, runs: timed)
        document.shard = context.shard
        document.profile = context.profile
        document.engineVersions = context.engineVersions
        document.ledger = context.ledger.entries.filter { selections.contains($0.engine) }.map(LedgerEntry.init)
        document.notApplicable = context.notApplicable
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// A report read back (`merge-reports`): its tool, runs, shard record and what it was judged with.
    package struct Parsed: Sendable {
        package let tool: String
        package let runs: [TimedRun]
        package let shard: ShardRecord?
        package let context: Context
    }

    /// Reads a report written by `json(_:toolVersion:context:)`; throws when it is not one (or of another format).
    package static func parse(_ data: Data) throws -> Parsed {
        let document = try JSONDecoder().decode(Document.self, from: data)
        guard document.format == formatVersion else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "report format \(document.format), expected \(formatVersion)"))
        }
        var context = Context(
            profile: document.profile ?? .standard, engineVersions: document.engineVersions ?? [:],
            ledger: DefectLedger(entries: (document.ledger ?? []).map(KnownDefect.init)))
        context.notApplicable = document.notApplicable ?? []
        return Parsed(tool: document.tool, runs: document.runs, shard: document.shard, context: context)
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

extension KnownDefect {
    /// A ledger entry as a report carried it (a merged report keeps its shards' ledger).
    init(_ entry: JSONReport.LedgerEntry) {
        self.init(
            engine: entry.engine, version: entry.version, scenario: entry.scenario, check: entry.check, clause: entry.clause,
            reason: entry.reason, link: entry.link, expires: entry.expires, seeds: entry.seeds.map(Set.init))
    }
}
