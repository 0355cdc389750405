// Systematic race exploration (`marmot-conform explore`, docs/explore.md): runs one scenario under
// every distinct schedule of its world (parallel orders, the order in which a relay or member
// receives frames due at the same instant), depth first over choice sequences, pruning states met
// before, within a budget; the first failing schedule is shrunk and handed back for a capsule.
//
// Each schedule runs from the start (prefix replay): a world's members are actors around engines
// whose state cannot be copied (an MDK driver is another process), so there is no snapshot to go
// back to; replaying a prefix costs what the prefix's crypto costs, nothing else.
import DeterministicScheduler
import Foundation
import ScenarioModel

/// How much to explore: at most this many schedules, for at most this many seconds.
package struct ExploreBudget: Sendable {
    package var schedules: Int?
    package var seconds: Double?
    package init(schedules: Int? = nil, seconds: Double? = nil) {
        self.schedules = schedules
        self.seconds = seconds
    }
}

/// A failing schedule: as found and as shrunk, with the run of the shrunk one.
package struct ExploreFailure: Sendable {
    package let found: [Int]
    package let schedule: [Int]
    package let execution: Execution
    package let shrinkRuns: Int
    /// The checks that failed, by name.
    package var failing: [String] { execution.run.checks.filter { $0.verdict.failsTheRun }.map(\.check).sorted() }
}

/// What an exploration saw.
package struct ExploreReport: Sendable {
    package var frontier = ExploreFrontier()
    /// Distinct end states (hashes of the members' outcomes), and how many runs ended in each.
    package var endStates: [String: Int] = [:]
    package var failure: ExploreFailure?
    /// Why the exploration could not run at all (an engine missing, a member not starting).
    package var broken: String?
    /// Whether the whole space was run (or pruned as equivalent) without a failure.
    package var fullCoverage: Bool { failure == nil && broken == nil && frontier.exhausted }
}

package struct Explorer: Sendable {
    package let executor: ScenarioExecutor
    package let scenario: Scenario
    package let seed: UInt64
    package let selection: EngineSelection
    /// The most runs shrinking may spend.
    package var maxShrinkRuns = 200
    /// Seconds since the exploration began, read by the caller (this module reads no clock).
    package var elapsed: @Sendable () -> Double = { 0 }

    package init(executor: ScenarioExecutor, scenario: Scenario, seed: UInt64, selection: EngineSelection = .swift) {
        self.executor = executor
        self.scenario = scenario
        self.seed = seed
        self.selection = selection
    }

    /// Explores until the space is exhausted, the budget is spent, or a schedule fails.
    package func explore(budget: ExploreBudget) async -> ExploreReport {
        var report = ExploreReport()
        while !spent(budget, report), let prefix = report.frontier.next() {
            let execution = await run(prefix)
            if let found = report.absorb(execution, prefix: prefix) {
                report.failure = await shrink(found, execution: execution)
                break
            }
        }
        return report
    }

    func spent(_ budget: ExploreBudget, _ report: ExploreReport) -> Bool {
        if report.broken != nil { return true }
        if let limit = budget.schedules, report.frontier.schedules >= limit { return true }
        if let limit = budget.seconds, elapsed() >= limit { return true }
        return false
    }

    /// One run on `schedule`, from the start.
    package func run(_ schedule: [Int]) async -> Execution {
        var executor = executor
        executor.schedule = schedule
        return await executor.execute(scenario, seed: seed, selection: selection, reproduce: "")
    }

    /// Greedy shrinking: a candidate with fewer non-default choices (or smaller ones) that still
    /// fails one of the same checks replaces the schedule, until no candidate does.
    func shrink(_ found: [Int], execution: Execution) async -> ExploreFailure {
        let failing = Set(execution.run.checks.filter { $0.verdict.failsTheRun }.map(\.check))
        var best = (schedule: found, execution: execution)
        var runs = 0
        var improved = true
        while improved, runs < maxShrinkRuns {
            improved = false
            for candidate in Self.shrinkCandidates(best.schedule) where runs < maxShrinkRuns {
                runs += 1
                let attempt = await run(candidate)
                if Self.failsLike(attempt, failing) {
                    best = (Self.taken(attempt), attempt)
                    improved = true
                    break
                }
            }
        }
        return ExploreFailure(found: found, schedule: best.schedule, execution: best.execution, shrinkRuns: runs)
    }

    /// Smaller schedules than `schedule`, most reduced first: all defaults, then each non-default
    /// choice (last first) set to the default, then each lowered by one.
    static func shrinkCandidates(_ schedule: [Int]) -> [[Int]] {
        func trimmed(_ s: [Int]) -> [Int] {
            var s = s
            while s.last == 0 { s.removeLast() }
            return s
        }
        var candidates: [[Int]] = schedule.isEmpty ? [] : [[]]
        for index in schedule.indices.reversed() where schedule[index] != 0 {
            var zeroed = schedule
            zeroed[index] = 0
            candidates.append(trimmed(zeroed))
        }
        for index in schedule.indices.reversed() where schedule[index] > 1 {
            var lowered = schedule
            lowered[index] -= 1
            candidates.append(lowered)
        }
        var seen: Set<[Int]> = [schedule]
        return candidates.filter { seen.insert($0).inserted }
    }

    static func failsLike(_ execution: Execution, _ failing: Set<String>) -> Bool {
        execution.run.checks.contains { $0.verdict.failsTheRun && failing.contains($0.check) }
    }

    /// The choices a run actually took (out-of-range prescriptions read as defaults), trailing defaults dropped.
    static func taken(_ execution: Execution) -> [Int] {
        var taken = execution.choicePoints.map(\.taken)
        while taken.last == 0 { taken.removeLast() }
        return taken
    }

    /// The capsule of a failure: `replay` follows its schedule.
    package func capsule(_ failure: ExploreFailure, text: String, versions: [String: String], reproduce: String) -> FailureCapsule {
        let execution = failure.execution
        return FailureCapsule(
            scenarioFile: scenario.file, scenarioText: text, engine: selection.rawValue, engineVersions: versions, seed: seed,
            stepLog: execution.stepLog, trace: execution.trace, steps: execution.steps, fingerprint: execution.run.fingerprint,
            failures: execution.run.checks.filter { $0.verdict.failsTheRun }, reproduce: reproduce, schedule: failure.schedule)
    }
}

extension ExploreReport {
    /// Records a run; returns its schedule when it failed.
    mutating func absorb(_ execution: Execution, prefix: [Int]) -> [Int]? {
        if let reason = execution.run.notRun {
            broken = reason
            return nil
        }
        frontier.record(execution.choicePoints, prefix: prefix)
        var hasher = FNV1a128()
        hasher.absorbField(execution.outcome?.json() ?? "no outcome")
        endStates[hasher.hex, default: 0] += 1
        guard execution.run.checks.contains(where: { $0.verdict.failsTheRun }) else { return nil }
        if execution.outcome == nil, execution.choicePoints.isEmpty {
            broken = execution.run.checks.first { $0.verdict.failsTheRun }.map { "\($0.check): \($0.detail)" }
            return nil
        }
        return Explorer.taken(execution)
    }
}
