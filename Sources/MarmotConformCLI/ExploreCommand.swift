import ArgumentParser
import Foundation
import ScenarioModel
import ScenarioRunner

/// `--budget`: a number of schedules (`2000`) or of seconds (`30s`).
struct ExploreBudgetArgument: ExpressibleByArgument, Equatable {
    let budget: ExploreBudget
    let text: String

    init?(argument: String) {
        text = argument
        if argument.hasSuffix("s"), let seconds = Double(argument.dropLast()), seconds > 0, seconds <= 86_400 {
            budget = ExploreBudget(seconds: seconds)
        } else if let schedules = Int(argument), schedules > 0 {
            budget = ExploreBudget(schedules: schedules)
        } else {
            return nil
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.text == rhs.text }
    var defaultValueDescription: String { text }
}

extension MarmotConform {
    /// Enumerates a small world's distinct schedules (docs/explore.md).
    struct Explore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run one scenario under every distinct schedule of its world (Swift engine), shrink the first failure.",
            discussion: """
                Schedules: the orders of `parallel` blocks and, with link jitter off, which of several frames due at \
                the same instant for the same relay or member arrives first. Depth first over choice sequences, \
                pruning states met before (docs/explore.md). Prints schedules explored, distinct end states, \
                schedules/s and whether the space was covered in full. The first failing schedule is shrunk and \
                written as a failure capsule that `marmot-conform replay` follows.

                Our engine only: MDK runs take seconds each, too slow to enumerate.
                Exit status: 0 no schedule failed (full coverage or budget spent); 1 a schedule failed (or the file \
                is invalid); 64 usage.
                """)

        @Argument(help: "One scenario file.")
        var file: String

        @Option(help: "The seed of the world (the default schedule is this seed's run without jitter).")
        var seed: UInt64 = 1

        @Option(help: ArgumentHelp("Schedules to run (N) or seconds to spend (Ns).", valueName: "N|Ns"))
        var budget = ExploreBudgetArgument(argument: "60s")!

        @Option(help: "Where the failure capsule is written (default: run/capsules/explore under the repository root).")
        var capsules: String?

        @Flag(help: "Run only the default schedule and list its choice points (label, alternatives), then stop.")
        var listPoints = false

        @OptionGroup var options: RunnerOptions

        struct Plan {
            let repo: Repository
            let scenario: Scenario
            let text: String
            let capsuleURL: URL
        }

        func plan() throws -> Plan {
            let (repo, _) = try options.locate()
            let files = try ScenarioFiles.collect([file], in: repo)
            guard files.count == 1 else { throw usageError("explore takes one scenario file, \(file) holds \(files.count)") }
            let capsuleURL = capsules.map(repo.output) ?? repo.root.appendingPathComponent("run/capsules/explore")
            try repo.enter()
            let (scenarios, _) = ScenarioFiles.load(files)
            guard let (scenario, text) = scenarios.first else { throw ExitStatus.failure }
            return Plan(repo: repo, scenario: scenario, text: text, capsuleURL: capsuleURL)
        }

        func run() async throws {
            let plan = try plan()
            let session = try await EngineSession.start(
                for: .swift, context: try options.engineContext(plan.repo), driverTimeout: options.driverTimeout)
            let explorer = makeExplorer(plan, session)
            Console.line("marmot-conform explore: \(plan.scenario.file) on swift, seed \(seed), budget \(budget.text)")
            if listPoints { return await list(explorer, session) }
            let start = ContinuousClock.now
            let report = await explorer.explore(budget: budget.budget)
            let seconds = Stopwatch.seconds(ContinuousClock.now - start)
            await session.shutdown()
            try finish(report, seconds: seconds, explorer: explorer, plan: plan, versions: session.versions)
        }

        func list(_ explorer: Explorer, _ session: EngineSession) async {
            let execution = await explorer.run([])
            await session.shutdown()
            for (index, point) in execution.choicePoints.enumerated() {
                Console.line("\(index): \(point.label) (\(point.options) alternatives)")
            }
            Console.line("\(execution.choicePoints.count) choice point(s) on the default schedule")
        }

        func makeExplorer(_ plan: Plan, _ session: EngineSession) -> Explorer {
            var explorer = Explorer(
                executor: ScenarioExecutor(engines: session.engines, epochUnixSeconds: session.epoch), scenario: plan.scenario, seed: seed)
            let start = ContinuousClock.now
            explorer.elapsed = { Stopwatch.seconds(ContinuousClock.now - start) }
            return explorer
        }

        func finish(_ report: ExploreReport, seconds: Double, explorer: Explorer, plan: Plan, versions: [String: String]) throws {
            for line in ExploreSummary.lines(report, seconds: seconds) { Console.line(line) }
            if let broken = report.broken {
                Console.line("error: the world could not run: \(broken)")
                throw ExitStatus.failure
            }
            guard let failure = report.failure else { return }
            let capsule = try writeCapsule(failure, explorer: explorer, plan: plan, versions: versions)
            Console.line("capsule: \(capsule.path)")
            Console.line("reproduce: \(plan.repo.command) replay \(capsule.path)")
            throw ExitStatus.failure
        }

        func writeCapsule(_ failure: ExploreFailure, explorer: Explorer, plan: Plan, versions: [String: String]) throws -> URL {
            let probe = explorer.capsule(failure, text: plan.text, versions: versions, reproduce: "")
            let url = plan.capsuleURL.appendingPathComponent(probe.suggestedFileName)
            let capsule = explorer.capsule(
                failure, text: plan.text, versions: versions, reproduce: "\(plan.repo.command) replay \(url.path)")
            let (data, name) = try capsule.encoded()
            try FileManager.default.createDirectory(at: plan.capsuleURL, withIntermediateDirectories: true)
            let written = plan.capsuleURL.appendingPathComponent(name)
            try data.write(to: written)
            return written
        }
    }
}

/// The figures of an exploration, as printed.
enum ExploreSummary {
    static func lines(_ report: ExploreReport, seconds: Double) -> [String] {
        let frontier = report.frontier
        let rate = seconds > 0 ? Double(frontier.schedules) / seconds : 0
        var lines = [
            "explored \(frontier.schedules) distinct schedule(s) in \(String(format: "%.2f", seconds)) s "
                + "(\(String(format: "%.1f", rate)) schedules/s): \(report.endStates.count) distinct end state(s), "
                + "\(frontier.choicePoints) choice point(s), \(frontier.pruned) pruned as visited states, deepest \(frontier.deepest)"
        ]
        if report.fullCoverage {
            lines.append("coverage: full (every schedule run, or pruned as reaching a state already explored)")
        } else if report.failure == nil, report.broken == nil {
            lines.append("coverage: partial (budget spent with \(frontier.waiting) branch(es) unexplored)")
        }
        if let failure = report.failure {
            lines.append(
                "FAIL after \(frontier.schedules) schedule(s): schedule \(failure.found) shrunk to \(failure.schedule) in \(failure.shrinkRuns) run(s)"
            )
            lines.append("failing: \(failure.failing.joined(separator: "; "))")
        }
        return lines
    }
}
