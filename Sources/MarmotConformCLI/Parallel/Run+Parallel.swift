// `run --jobs N` (worker processes on this machine) and `run --shard K/N` (part of a run, for a CI
// matrix). Both go unit by unit (one scenario × one seed) and report in the plan's order, so their
// reports are those of a plain run (docs/parallel-runs.md).
import Foundation
import ScenarioRunner

extension MarmotConform.Run {
    struct WorkersDidNotStart: Error, CustomStringConvertible {
        let description: String
    }

    /// The units in this process, one after the other (a shard without --jobs).
    func runShard(_ plan: Plan) async throws {
        let session = try await EngineSession.start(for: engine, context: plan.engines, driverTimeout: options.driverTimeout)
        let request = try request(plan, versions: session.versions)
        let runner = ConformanceRunner(executor: try executor(session))
        let progress = RunProgress(total: plan.units.count)
        Console.line(banner(plan, session.versions))
        for unit in plan.units {
            progress.record(timed: await Self.runUnit(unit, plan: plan, runner: runner, request: request))
        }
        await session.shutdown()
        try finish(plan, runs: progress.timed.map(\.run), progress: progress, request: request)
    }

    /// The units in `--jobs` worker processes, each started as this binary with `--worker`.
    func runInWorkers(_ plan: Plan) async throws {
        // SIGINT/SIGTERM end the workers too (they are listed with the live drivers), and each
        // worker ends its own drivers the same way.
        SignalCleanup.installOnce()
        let progress = RunProgress(total: plan.units.count)
        let (scenarios, seeds, name) = (plan.scenarios.count, plan.seeds.count, engine.rawValue)
        let pool = WorkerPool(
            identities: identities(plan), costs: Self.costs(plan),
            banner: { Self.banner(scenarios: scenarios, seeds: seeds, engine: name, versions: $0) })
        let launch = try workerLaunch(plan)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(jobs.value, max(plan.units.count, 1)) {
                group.addTask { await WorkerSlot.drive(pool, launch) }
            }
        }
        guard await pool.anyReady else { throw WorkersDidNotStart(description: await pool.whyNoneStarted) }
        for timed in await pool.finalize() { progress.add(timed) }
        try finish(plan, runs: progress.timed.map(\.run), progress: progress, request: try request(plan, versions: await pool.versions))
    }

    /// A unit's estimated cost: members × steps (the world's work grows with both; the 50-member
    /// channel scenario is a third of the swift gate on its own).
    static func costs(_ plan: Plan) -> [Int] {
        plan.units.map { unit in
            let scenario = plan.scenarios[unit.scenario].0
            return scenario.members.count * (scenario.steps.count + 1)
        }
    }

    /// How each unit is named should its worker die (as the runner names it).
    func identities(_ plan: Plan) -> [UnitIdentity] {
        plan.units.map { unit in
            let scenario = plan.scenarios[unit.scenario].0
            let reproduce =
                "\(plan.repo.command) run \(plan.repo.absolutePath(scenario.file)) --engine \(engine.rawValue) --seed \(unit.seed)"
            return UnitIdentity(
                scenario: scenario.name, file: scenario.file, engine: engine.rawValue, seed: unit.seed, reproduce: reproduce)
        }
    }

    /// This binary with the options that make the same plan, everything absolute (workers start in
    /// the root), and `--worker`.
    func workerLaunch(_ plan: Plan) throws -> WorkerSlot.Launch {
        guard let binary = Repository.executable?.path else {
            throw WorkersDidNotStart(description: "cannot find this executable to start workers")
        }
        var arguments = ["run"] + plan.resolvedPaths + ["--worker", "--root", plan.repo.root.path, "--engine", engine.rawValue]
        arguments += [
            "--ledger", plan.ledgerURL.path, "--capsules", plan.capsuleURL.path, "--driver-timeout", "\(options.driverTimeout.seconds)",
        ]
        if let seeds { arguments += ["--seeds", "\(seeds.seeds.lowerBound)..\(seeds.seeds.upperBound)"] }
        if let seed { arguments += ["--seed", String(seed)] }
        if let filter { arguments += ["--filter", filter] }
        if let shard { arguments += ["--shard", "\(shard.index)/\(shard.count)"] }
        if checkDeterminism { arguments.append("--check-determinism") }
        // Workers resolve engine names and judge checks exactly as this process does.
        if let file = plan.engines.file { arguments += ["--engines", file.path] }
        if options.profile != .standard { arguments += ["--profile", options.profile.rawValue] }
        return WorkerSlot.Launch(executable: binary, arguments: arguments)
    }
}
