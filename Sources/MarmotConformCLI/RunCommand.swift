import ArgumentParser
import ExternalProcessEngine
import Foundation
import ScenarioRunner

extension MarmotConform {
    /// Runs scenarios and judges them: the conformance gate.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run conformance scenarios and print a verdict per scenario × engine × seed.",
            discussion: """
                Exit status 0 when nothing failed (known defects and unsupported scenarios do not fail), 1 otherwise.
                A failing run writes a failure capsule and prints the command that reproduces it.
                """)

        @Argument(help: "Scenario files or folders (default: scenarios/).")
        var paths: [String] = ["scenarios"]

        @Option(help: "Engine for members without one of their own: mdk, swift or mixed.")
        var engine: String = "mdk"

        @Option(help: "The seed of the world (one run per scenario).")
        var seed: UInt64?

        @Option(help: "A range of seeds, A..B inclusive (one run per scenario per seed).")
        var seeds: String?

        @Option(help: "Run only scenarios whose name or file contains this text.")
        var filter: String?

        @Option(help: "Write a JUnit XML report to this file.")
        var junit: String?

        @Option(help: "Write a JSON report (docs/report-format.md) to this file.")
        var json: String?

        @Flag(help: "Rewrite vectors/scenarios/*.json from this run's outcomes (review the diff before committing).")
        var updateVectors = false

        @Flag(help: "Run each scenario twice per seed and fail on any trace fingerprint mismatch.")
        var checkDeterminism = false

        @Option(help: "The known-defects ledger.")
        var ledger: String = "known-defects.yaml"

        @Option(help: "Where failure capsules are written.")
        var capsules: String = "run/capsules"

        @Option(help: "Seconds an engine driver may go without progress (no output, no CPU time) before its request fails.")
        var driverTimeout: Double = Double(ProgressDeadline.defaultSilence.components.seconds)

        func validate() throws {
            guard ["mdk", "swift", "mixed"].contains(engine) else {
                throw ValidationError("--engine must be mdk, swift or mixed, not '\(engine)'")
            }
            if seed != nil, seeds != nil { throw ValidationError("give --seed or --seeds, not both") }
            if let seeds, SeedRange.parse(seeds) == nil { throw ValidationError("--seeds must look like 1..200, not '\(seeds)'") }
            guard driverTimeout > 0, driverTimeout <= 3600 else { throw ValidationError("--driver-timeout must be in (0, 3600] seconds") }
        }

        func run() async throws {
            let seedList = seeds.flatMap(SeedRange.parse) ?? [seed ?? 1]
            let files = try ScenarioFiles.collect(paths)
            var (scenarios, invalid) = ScenarioFiles.load(files)
            if let filter { scenarios = scenarios.filter { $0.0.name.contains(filter) || $0.0.file.contains(filter) } }
            let session = try await EngineSession.start(for: engine, driverTimeout: driverTimeout)
            let request = RunRequest(
                selection: engine, seeds: seedList, updateVectors: updateVectors, checkDeterminism: checkDeterminism,
                vectorsDirectory: URL(fileURLWithPath: "vectors/scenarios"), capsuleDirectory: URL(fileURLWithPath: capsules),
                ledger: try DefectLedgerFile.load(ledger), engineVersions: session.versions, today: Today.string)
            let runner = ConformanceRunner(executor: ScenarioExecutor(engines: session.engines, epochUnixSeconds: session.epoch))
            print("marmot-conform: \(scenarios.count) scenario(s) × \(seedList.count) seed(s) on \(engine) [\(session.versions.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", "))]")
            let started = Date()
            let runs = await runner.run(scenarios, request: request) { ProgressPrinter.print($0) }
            await session.shutdown()
            try Reports.write(runs, junit: junit, json: json)
            if seedList.count > 1 { ProgressPrinter.interleavings(runs, seconds: Date().timeIntervalSince(started)) }
            if invalid > 0 { print("\(invalid) scenario file(s) did not load (errors above)") }
            print(RunSummary(runs).line)
            if invalid > 0 || runs.contains(where: { $0.verdict.failsTheRun }) { throw ExitCode.failure }
        }
    }

    /// Re-runs the run a failure capsule describes.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reproduce a failing run from its failure capsule (the scenario text is taken from the capsule).")

        @Argument(help: "A capsule written by a failing run.")
        var capsule: String

        @Option(help: "The known-defects ledger.")
        var ledger: String = "known-defects.yaml"

        func run() async throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: capsule))
            let recorded = try FailureCapsule(json: data, file: capsule)
            let scenario = try Scenario(yaml: recorded.scenarioText, file: recorded.scenarioFile)
            if let current = try? String(contentsOfFile: recorded.scenarioFile, encoding: .utf8), current != recorded.scenarioText {
                print("note: \(recorded.scenarioFile) changed since the capsule was written; replaying the capsule's copy")
            }
            let session = try await EngineSession.start(for: recorded.engine)
            // The same pipeline as `run` (vectors, ledger), so that every recorded check is re-judged.
            let request = RunRequest(
                selection: recorded.engine, seeds: [recorded.seed], updateVectors: false, checkDeterminism: false,
                vectorsDirectory: URL(fileURLWithPath: "vectors/scenarios"),
                capsuleDirectory: URL(fileURLWithPath: "run/capsules/replays"), ledger: try DefectLedgerFile.load(ledger),
                engineVersions: session.versions, today: Today.string)
            let runner = ConformanceRunner(executor: ScenarioExecutor(engines: session.engines, epochUnixSeconds: session.epoch))
            let runs = await runner.run([(scenario, recorded.scenarioText)], request: request) { ProgressPrinter.print($0) }
            await session.shutdown()
            let failing = runs.flatMap(\.checks).filter { $0.verdict == .fail }
            let before = Set(recorded.failures.map(\.check))
            let now = Set(failing.map(\.check))
            if now == before {
                print("reproduced: the same \(now.count) check(s) fail")
                throw ExitCode.failure
            }
            print("not reproduced: recorded failures \(before.sorted()), now \(now.sorted())")
            throw ExitCode(2)
        }
    }
}

/// Inclusive seed ranges such as `1..200`.
enum SeedRange {
    static func parse(_ text: String) -> [UInt64]? {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low <= high, high - low < 1_000_000 else {
            return nil
        }
        return Array(low...high)
    }
}

enum Today {
    /// The UTC date, for ledger expiry (the CLI is where the wall clock may be read).
    static var string: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }
}

enum DefectLedgerFile {
    static func load(_ path: String) throws -> DefectLedger {
        guard FileManager.default.fileExists(atPath: path) else { return DefectLedger(entries: []) }
        return try DefectLedger(yaml: try String(contentsOfFile: path, encoding: .utf8), file: path)
    }
}

/// The engines one invocation uses, started once and shared by all its runs.
struct EngineSession {
    var engines = EngineSet([:])
    var versions: [String: String] = [:]
    /// Unix time of virtual zero, the same for every engine: MDK runs on the world's clock too (its
    /// driver's world shim), so every run replays byte for byte.
    var epoch: UInt64 = 1_700_000_000
    var shutdowns: [@Sendable () async -> Void] = []

    static func start(for selection: String, driverTimeout: Double = Double(ProgressDeadline.defaultSilence.components.seconds))
        async throws -> EngineSession
    {
        var session = EngineSession()
        if selection == "swift" || selection == "mixed" {
            session.engines.entries["swift"] = Engines.swift
            session.versions["swift"] = "0.1"
        }
        if selection == "mdk" || selection == "mixed" {
            let (entry, version, shutdown) = try await Engines.mdk(
                try MDKDriverCommand.resolve(), deadline: ProgressDeadline(silence: .milliseconds(Int64(driverTimeout * 1000))),
                epoch: session.epoch)
            session.engines.entries["mdk"] = entry
            session.versions["mdk"] = version
            session.shutdowns.append(shutdown)
        }
        if selection == "mixed" {
            // What a ledger entry for mixed runs names as its version: every engine taking part.
            session.versions["mixed"] = session.versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                .joined(separator: " + ")
        }
        return session
    }

    func shutdown() async {
        for shutdown in shutdowns { await shutdown() }
    }
}

enum ProgressPrinter {
    static func print(_ run: ScenarioRun) {
        let tag = run.verdict.rawValue.uppercased()
        Swift.print("\(tag) \(run.file) [\(run.engine), seed \(run.seed)] \(run.scenario)")
        if let notRun = run.notRun { Swift.print("  \(notRun)") }
        for check in run.checks where check.verdict != .pass {
            Swift.print("  \(check.verdict.rawValue): \(check.check) — \(check.clause)")
            if !check.detail.isEmpty { Swift.print("    \(check.detail.replacingOccurrences(of: "\n", with: "\n    "))") }
            if let expected = check.expected, check.verdict == .fail { Swift.print("    expected: \(expected)") }
            if let observed = check.observed, check.verdict == .fail { Swift.print("    observed: \(observed)") }
        }
        if run.verdict == .fail {
            if let capsule = run.capsule { Swift.print("  capsule: \(capsule)") }
            Swift.print("  reproduce: \(run.reproduce)")
        }
    }

    /// Per scenario: distinct interleavings of its parallel blocks seen across seeds (and distinct
    /// trace fingerprints where the engines are deterministic), then overall throughput.
    static func interleavings(_ runs: [ScenarioRun], seconds: Double) {
        for (file, group) in Dictionary(grouping: runs, by: \.file).sorted(by: { $0.key < $1.key }) {
            let orders = Set(group.compactMap(\.interleaving))
            let traces = Set(group.compactMap(\.fingerprint))
            var line = "\(file): \(group.count) runs, \(orders.count) distinct interleavings"
            if !traces.isEmpty { line += ", \(traces.count) distinct traces" }
            Swift.print(line)
        }
        Swift.print(String(format: "throughput: %.2f runs/s (%d runs in %.1f s)", Double(runs.count) / max(seconds, 0.001), runs.count, seconds))
    }
}

enum Reports {
    static func write(_ runs: [ScenarioRun], junit: String?, json: String?) throws {
        if let junit { try JUnitReport.xml(runs).write(toFile: junit, atomically: true, encoding: .utf8) }
        if let json { try JSONReport.json(runs, toolVersion: "0.1").write(toFile: json, atomically: true, encoding: .utf8) }
    }
}
