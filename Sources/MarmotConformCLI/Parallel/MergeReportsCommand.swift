// `marmot-conform merge-reports`: joins the JSON reports of the N shards of one run (`run --shard
// K/N --json …`, e.g. one per CI matrix job) into the report that run would have written unsharded,
// and its JUnit twin: runs in the whole run's order, summary recomputed (docs/parallel-runs.md).
import ArgumentParser
import Foundation
import ScenarioRunner

extension MarmotConform {
    struct MergeReports: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge-reports",
            abstract: "Join the JSON reports of the shards of one run into one JSON (and JUnit) report.",
            discussion: """
                Every shard 1..N of the run must be given once (`run --shard K/N --json FILE`). The merged \
                report is the one the run writes unsharded, timings apart.

                Exit status: 0 nothing failed; 1 a run in the merged report failed, is an error or is an \
                unexpected pass (a stale ledger entry; --allow-unexpected-pass lets it); 64 a report \
                does not read, or the shards do not make one whole run.
                """)

        @Argument(help: "The shards' JSON reports, in any order.")
        var reports: [String]

        @Option(help: "Write the merged JSON report here.")
        var json: String?

        @Option(help: "Write the merged JUnit XML report here.")
        var junit: String?

        @Flag(help: "Let an unexpected pass (a stale ledger entry) not fail the merged run, as `run` does.")
        var allowUnexpectedPass = false

        func run() throws {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let parsed = try reports.map { path in
                let url = URL(fileURLWithPath: path, relativeTo: cwd)
                do {
                    return (path, try JSONReport.parse(try Data(contentsOf: url)))
                } catch {
                    throw usageError("\(path): not a marmot-conform JSON report: \(error)")
                }
            }
            let merged: [TimedRun]
            do {
                merged = try ShardMerge.merge(parsed)
            } catch let problem as ShardMerge.Problem {
                throw usageError(problem.description)
            }
            // Shards of one run share its profile and ledger; engine versions are the union.
            var context = parsed.first?.1.context ?? JSONReport.Context()
            for (_, part) in parsed { context.engineVersions.merge(part.context.engineVersions) { first, _ in first } }
            try Reports.write(
                merged, junit: junit.map { URL(fileURLWithPath: $0, relativeTo: cwd) },
                json: json.map { URL(fileURLWithPath: $0, relativeTo: cwd) },
                context: context)
            let runs = merged.map(\.run)
            Console.line("merged \(parsed.count) shard report(s): \(runs.count) run(s)")
            Console.line(RunSummary(runs).line(allowingUnexpectedPass: allowUnexpectedPass))
            if runs.contains(where: { $0.verdict.failsTheGate(allowingUnexpectedPass: allowUnexpectedPass) }) { throw ExitStatus.failure }
        }
    }
}

enum ShardMerge {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The shards' runs dealt back into the whole run's order: unit i is run i / N of shard i mod N + 1.
    static func merge(_ reports: [(path: String, report: JSONReport.Parsed)]) throws -> [TimedRun] {
        guard let first = reports.first else { throw Problem(description: "no report given") }
        guard let whole = first.report.shard else {
            throw Problem(description: "\(first.path) is not a shard's report (no \"shard\" field): write it with run --shard K/N")
        }
        var byIndex: [Int: [TimedRun]] = [:]
        for (path, report) in reports {
            guard let shard = report.shard, shard.count == whole.count, shard.units == whole.units else {
                throw Problem(
                    description: "\(path) is not a shard of the same run as \(first.path) (\(whole.count) shards of \(whole.units) units)")
            }
            guard report.tool == first.report.tool else {
                throw Problem(description: "\(path) was written by \(report.tool), \(first.path) by \(first.report.tool)")
            }
            guard byIndex[shard.index] == nil else {
                throw Problem(description: "shard \(shard.index)/\(shard.count) is given twice (\(path))")
            }
            let expected = ShardSpec(index: shard.index, count: shard.count).share(of: shard.units)
            guard report.runs.count == expected else {
                throw Problem(
                    description: "\(path): shard \(shard.index)/\(shard.count) holds \(report.runs.count) runs, expected \(expected)")
            }
            byIndex[shard.index] = report.runs
        }
        let missing = (1...whole.count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw Problem(description: "missing shard(s) \(missing.map { "\($0)/\(whole.count)" }.joined(separator: ", "))")
        }
        return (0..<whole.units).map { unit in byIndex[unit % whole.count + 1]![unit / whole.count] }
    }
}
