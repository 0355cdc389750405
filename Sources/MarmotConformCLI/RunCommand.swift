import ArgumentParser
import EngineInterface
import ExternalProcessEngine
import Foundation
import ScenarioModel
import ScenarioRunner

extension MarmotConform {
    /// Runs scenarios and judges them: the conformance gate.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run conformance scenarios and print a verdict per scenario × engine × seed.",
            discussion: """
                Prints one line per run as it finishes: [i/N], the verdict, the run and its wall-clock duration.
                A failing run writes a failure capsule (see `marmot-conform trace`) and prints the command that
                reproduces it, which works from any directory.

                Exit status: 0 nothing failed (known defects and unsupported scenarios do not fail); 1 a check
                failed, a ledgered defect passed (a stale ledger entry; --allow-unexpected-pass lets it), or a
                scenario file is invalid; 64 usage (a missing path, a path or filter with no scenario,
                no repository found). An engine or driver that does not start or answer is never a pass.
                """)

        @Argument(help: "Scenario files or folders (default: scenarios/).")
        var paths: [String] = ["scenarios"]

        @Option(
            help: ArgumentHelp(
                "Engine for members without one of their own: swift, mdk, mixed, a name from the engines file, or driver:'CMD ARGS'.",
                valueName: "engine"))
        var engine: EngineSelection = .mdk

        @Flag(
            help:
                "Run each scenario under every assignment of the --engines to its members (a pairwise-covering set when there are many) and print the interop matrix."
        )
        var matrix = false

        @Option(help: "With --matrix: write the matrix as Markdown to this file.")
        var matrixMd: String?

        @Option(help: "With --matrix: write the matrix as JSON to this file.")
        var matrixJson: String?

        @Option(help: "The seed of the world (one run per scenario).")
        var seed: UInt64?

        @Option(
            help: ArgumentHelp(
                "A range of seeds, A..B inclusive, A ≤ B, at most a million (one run per scenario per seed).", valueName: "A..B"))
        var seeds: SeedRange?

        @Option(help: "Run only scenarios whose name or file contains this text.")
        var filter: String?

        @Option(help: "Write a JUnit XML report to this file.")
        var junit: String?

        @Option(help: "Write a JSON report (docs/report-format.md) to this file.")
        var json: String?

        @Flag(help: "Rewrite vectors/scenarios/*.json from this run's outcomes (review the diff before committing).")
        var updateVectors = false

        @Flag(
            help:
                "Check that each seed replays its trace: by the pinned fingerprint when the run left it, else by a second run (fail on any mismatch)."
        )
        var checkDeterminism = false

        @Flag(
            help:
                "Let a known defect that passed (unexpected-pass: a stale ledger entry) not fail the run, for local work; the gate never allows it."
        )
        var allowUnexpectedPass = false

        @Flag(help: "Print each run's whole trace (network and members, in order) live, step by step.")
        var trace = false

        @Option(help: "Where failure capsules are written (default: run/capsules under the repository root).")
        var capsules: String?

        @Option(
            help: ArgumentHelp(
                "Run scenarios in this many worker processes (1: in this process). Reports are those of --jobs 1, in the same order.",
                valueName: "N"))
        var jobs = JobCount(1)

        @Option(
            help: ArgumentHelp(
                "Run only part K of N of the scenario × seed units (a CI matrix runs all N; merge-reports joins their JSON).",
                valueName: "K/N"))
        var shard: ShardSpec?

        @Flag(
            help:
                "Print the scenario × seed units this invocation would run (after --filter, the profile and --shard), one per line, and start no engine."
        )
        var list = false

        @Flag(help: .hidden)
        var worker = false

        @OptionGroup var options: RunnerOptions

        @OptionGroup var realNetwork: RealNetworkOptions

        func validate() throws {
            try realNetwork.validate(
                jobs: jobs.value, shard: shard != nil, matrix: matrix, updateVectors: updateVectors, checkDeterminism: checkDeterminism)
            if seed != nil, seeds != nil { throw ValidationError("give --seed or --seeds, not both") }
            if updateVectors, jobs.value > 1 || shard != nil {
                throw ValidationError("--update-vectors rewrites shared files: run it without --jobs and --shard")
            }
            if trace, jobs.value > 1 { throw ValidationError("--trace prints one run at a time: run it without --jobs") }
            if !matrix, matrixMd != nil || matrixJson != nil || options.engineList != nil {
                throw ValidationError("--matrix-md, --matrix-json and an engine list in --engines need --matrix")
            }
            if matrix, updateVectors { throw ValidationError("--matrix does not update vectors") }
            if matrix, jobs.value > 1 || shard != nil {
                throw ValidationError("--matrix runs in one process: run it without --jobs and --shard")
            }
            if list, matrix || updateVectors {
                throw ValidationError("--list prints a plain run's units: run it without --matrix and --update-vectors")
            }
        }

        /// What a run needs before any engine starts (no await here: Swift 6.3.1 crashed splitting a
        /// long async `run()` in release builds, so the async part is kept short).
        struct Plan {
            let repo: Repository
            let seeds: [UInt64]
            let scenarios: [(Scenario, text: String)]
            /// The scenarios skipped because they do not apply to the run's profile (`profiles:`).
            let notApplicable: [NotApplicable]
            let invalid: Int
            let ledgerURL: URL
            let engines: EngineContext
            let capsuleURL: URL
            let junit: URL?
            let json: URL?
            /// The paths given, resolved (workers get them absolute: they start in the root).
            let resolvedPaths: [String]
            /// The units this invocation runs (its shard's, with --shard), in report order.
            let units: [RunUnit]
            /// Units of the whole run before sharding (recorded in a shard's JSON report).
            let allUnits: Int
        }

        func plan() throws -> Plan {
            let (repo, ledgerURL) = try options.locate()
            let seedList = seeds.map { Array($0.seeds) } ?? [seed ?? 1]
            let files = try ScenarioFiles.collect(paths, in: repo)
            let capsuleURL = capsules.map(repo.output) ?? repo.root.appendingPathComponent("run/capsules")
            let junitURL = junit.map(repo.output)
            let jsonURL = json.map(repo.output)
            try repo.enter()
            let resolvedPaths = paths.map { repo.input($0).path }
            var (scenarios, invalid) = ScenarioFiles.load(files, quiet: worker)
            if let filter {
                scenarios = scenarios.filter { $0.0.name.contains(filter) || $0.0.file.contains(filter) }
                if scenarios.isEmpty, invalid == 0 { throw usageError("no scenario matches --filter '\(filter)'") }
            }
            let (applying, notApplicable) = ConformanceRunner.applicable(scenarios, to: options.profile)
            // As with a filter that selects none: a selection with nothing to run never "passes".
            if applying.isEmpty, !notApplicable.isEmpty, invalid == 0 {
                throw usageError(
                    "no selected scenario applies to profile \(options.profile) "
                        + "(\(notApplicable.count) apply to other profiles only; docs/profiles.md)")
            }
            let all = RunUnits.all(scenarioCount: applying.count, seeds: seedList)
            return Plan(
                repo: repo, seeds: seedList, scenarios: applying, notApplicable: notApplicable, invalid: invalid, ledgerURL: ledgerURL,
                engines: try options.engineContext(repo),
                capsuleURL: capsuleURL, junit: junitURL, json: jsonURL, resolvedPaths: resolvedPaths,
                units: shard.map { $0.select(all) } ?? all, allUnits: all.count)
        }

        func request(_ plan: Plan, versions: [String: String]) throws -> RunRequest {
            try options.request(
                repo: plan.repo, ledger: plan.ledgerURL, selection: engine, seeds: plan.seeds, capsules: plan.capsuleURL,
                versions: versions, updateVectors: updateVectors, checkDeterminism: checkDeterminism)
        }

        func run() async throws {
            let plan = try plan()
            if worker { return try await serveAsWorker(plan) }
            if list { return printUnits(plan) }
            if matrix { return try await runMatrix(plan) }
            if jobs.value > 1 { return try await runInWorkers(plan) }
            if shard != nil { return try await runShard(plan) }
            let session = try await EngineSession.start(for: engine, context: plan.engines, driverTimeout: options.driverTimeout)
            let request = try request(plan, versions: session.versions)
            let runner = ConformanceRunner(executor: try executor(session))
            let progress = RunProgress(total: plan.scenarios.count * plan.seeds.count)
            Console.line(banner(plan, session.versions))
            let runs = await runner.run(plan.scenarios, request: request) { progress.record($0) }
            await session.shutdown()
            try finish(plan, runs: runs, progress: progress, request: request)
        }

        /// `--list`: the units as `<scenario file> seed <n>` (files are root-relative), in the order a
        /// plain run goes through them. What sharded CI jobs run together is checked against this
        /// (ci/conformance --list, the workflow's shard-coverage test).
        func printUnits(_ plan: Plan) {
            for unit in plan.units { Console.line("\(plan.scenarios[unit.scenario].0.file) seed \(unit.seed)") }
        }

        func executor(_ session: EngineSession) throws -> ScenarioExecutor {
            // The real lane's relays read the wall clock (NIP-40, NIP-42): its world starts at now.
            let epoch = realNetwork.isReal ? UInt64(max(0, Date().timeIntervalSince1970)) : session.epoch
            var executor = ScenarioExecutor(engines: session.engines, epochUnixSeconds: epoch)
            executor.realNetwork = try realNetwork.launcher()
            if trace { executor.traceSink = { Console.line($0) } }
            return executor
        }

        func banner(_ plan: Plan, _ versions: [String: String]) -> String {
            Self.banner(scenarios: plan.scenarios.count, seeds: plan.seeds.count, engine: engine.rawValue, versions: versions)
        }

        static func banner(scenarios: Int, seeds: Int, engine: String, versions: [String: String]) -> String {
            let names = versions.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
            return "marmot-conform: \(scenarios) scenario(s) × \(seeds) seed(s) on \(engine) [\(names)]"
        }

        /// `profile current: 142 of 150 scenario(s) apply (94.7%)`, when some scenario does not apply.
        static func profileShare(_ plan: Plan, profile: MarmotProfile) -> String? {
            guard !plan.notApplicable.isEmpty else { return nil }
            let whole = plan.scenarios.count + plan.notApplicable.count
            let percent = Double(plan.scenarios.count) * 100 / Double(whole)
            return "profile \(profile): \(plan.scenarios.count) of \(whole) scenario(s) apply (\(String(format: "%.1f", percent))%); "
                + "\(plan.notApplicable.count) not applicable (not run, not counted)"
        }

        func finish(_ plan: Plan, runs: [ScenarioRun], progress: RunProgress, request: RunRequest) throws {
            let part = shard.map { ShardRecord(index: $0.index, count: $0.count, units: plan.allUnits) }
            var context = JSONReport.Context(
                profile: request.profile, engineVersions: request.engineVersions, ledger: request.ledger, shard: part)
            context.notApplicable = plan.notApplicable
            try Reports.write(progress.timed, junit: plan.junit, json: plan.json, context: context)
            for skipped in plan.notApplicable { Console.line(skipped.line(under: request.profile)) }
            if let share = Self.profileShare(plan, profile: request.profile) { Console.line(share) }
            if plan.seeds.count > 1 { ProgressPrinter.interleavings(runs, seconds: progress.stopwatch.total) }
            if plan.invalid > 0 { Console.line("\(plan.invalid) scenario file(s) did not load (errors above)") }
            Console.line(RunSummary(runs).line(allowingUnexpectedPass: allowUnexpectedPass))
            if plan.invalid > 0 || runs.contains(where: { $0.verdict.failsTheGate(allowingUnexpectedPass: allowUnexpectedPass) }) {
                throw ExitStatus.failure
            }
        }
    }

    /// Re-runs the run a failure capsule describes.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reproduce a failing run from its failure capsule (the scenario text is taken from the capsule).",
            discussion: """
                Exit status: 1 the same checks fail again (reproduced); 2 they do not (different checks fail, or \
                none); 64 the capsule cannot be read.
                """)

        @Argument(help: "A capsule written by a failing run (.capsule.json or .capsule.json.gz).")
        var capsule: String

        @OptionGroup var options: RunnerOptions

        /// The capsule read and checked before any engine starts (kept out of the async `run()`:
        /// Swift 6.3.1 crashed splitting it in release builds).
        struct Loaded {
            let repo: Repository
            let ledgerURL: URL
            let recorded: FailureCapsule
            let engine: EngineSelection
            let engines: EngineContext
            let scenario: Scenario
        }

        func load() throws -> Loaded {
            let (repo, ledgerURL) = try options.locate()
            let capsuleURL = repo.input(capsule)
            try repo.enter()
            let recorded = try CapsuleFile.read(capsuleURL)
            guard let engine = EngineSelection(rawValue: recorded.engine) else {
                throw usageError("\(capsuleURL.path): the capsule names an unknown engine '\(recorded.engine)'")
            }
            // A real-network run is judged by its end state: it does not replay, and replaying it in
            // the in-memory world would judge another run (docs/real-network.md).
            if recorded.reproduce.contains(" --network real") {
                throw usageError("\(capsuleURL.path): a run of the real-network lane does not replay; run it again: \(recorded.reproduce)")
            }
            let scenario = try Scenario(yaml: recorded.scenarioText, file: recorded.scenarioFile)
            if let current = try? String(contentsOfFile: recorded.scenarioFile, encoding: .utf8), current != recorded.scenarioText {
                Console.line("note: \(recorded.scenarioFile) changed since the capsule was written; replaying the capsule's copy")
            }
            return Loaded(
                repo: repo, ledgerURL: ledgerURL, recorded: recorded, engine: engine, engines: try options.engineContext(repo),
                scenario: scenario)
        }

        func request(_ loaded: Loaded, versions: [String: String]) throws -> RunRequest {
            try options.request(
                repo: loaded.repo, ledger: loaded.ledgerURL, selection: loaded.engine, seeds: [loaded.recorded.seed],
                capsules: loaded.repo.root.appendingPathComponent("run/capsules/replays"), versions: versions)
        }

        func run() async throws {
            let loaded = try load()
            let session = try await EngineSession.start(for: loaded.engine, context: loaded.engines, driverTimeout: options.driverTimeout)
            let request = try request(loaded, versions: session.versions)
            var executor = ScenarioExecutor(engines: session.engines, epochUnixSeconds: session.epoch)
            executor.schedule = loaded.recorded.schedule  // an explored schedule (docs/explore.md), else the seeded run
            let runner = ConformanceRunner(executor: executor)
            let progress = RunProgress(total: 1)
            let scenarios = [(loaded.scenario, text: loaded.recorded.scenarioText)]
            let runs = await runner.run(scenarios, request: request) { progress.record($0) }
            await session.shutdown()
            try Self.judge(runs, recorded: loaded.recorded)
        }

        static func judge(_ runs: [ScenarioRun], recorded: FailureCapsule) throws {
            let failing = runs.flatMap(\.checks).filter { $0.verdict.failsTheRun }
            let before = Set(recorded.failures.map(\.check))
            let now = Set(failing.map(\.check))
            if now == before {
                Console.line("reproduced: the same \(now.count) check(s) fail")
                throw ExitStatus.failure
            }
            Console.line("not reproduced: recorded failures \(before.sorted()), now \(now.sorted())")
            throw ExitStatus.notReproduced
        }
    }
}

/// Reads a capsule file, stopping the command with the usage status when it cannot.
enum CapsuleFile {
    static func read(_ url: URL) throws -> FailureCapsule {
        do {
            return try FailureCapsule(json: try Data(contentsOf: url), file: url.path)
        } catch let error as ScenarioError {
            throw usageError("\(error)")
        } catch {
            throw usageError("\(url.path): cannot read the capsule: \(error)")
        }
    }
}

extension Repository {
    /// A scenario file's absolute path (scenario identities are root-relative).
    func absolutePath(_ file: String) -> String {
        file.hasPrefix("/") ? file : root.appendingPathComponent(file).path
    }
}

enum Today {
    /// The UTC date, for ledger expiry (the CLI is where the wall clock may be read).
    static var string: String { RunPlan.day(Date()) }
}
