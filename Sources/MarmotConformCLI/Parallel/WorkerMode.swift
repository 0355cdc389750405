import Foundation
import ScenarioModel
import ScenarioRunner

// The worker side of `run --jobs N`: the parent re-executes this binary as `run … --worker`; the
// worker makes the same plan (same files, filter, seeds, shard, so the same unit list), starts its
// own engines, says it is ready, then runs the units the parent names, one at a time, answering
// each with its run record (WorkerProtocol). It exits when its stdin closes.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MarmotConform.Run {
    /// Test-only fault injection (docs/parallel-runs.md): a worker asked to run a unit whose scenario
    /// file contains this text exits at once with status 70, as a crashing worker would.
    static let workerExitVariable = "MARMOT_CONFORM_WORKER_EXIT_ON"

    func serveAsWorker(_ plan: Plan) async throws {
        let session = try await EngineSession.start(for: engine, context: plan.engines, driverTimeout: options.driverTimeout)
        let request = try request(plan, versions: session.versions)
        let runner = ConformanceRunner(executor: try executor(session))
        Console.line(WorkerProtocol.readyLine(units: plan.units.count, versions: session.versions))
        while let position = WorkerInput.next(units: plan.units.count) {
            let unit = plan.units[position]
            Self.crashIfAsked(plan.scenarios[unit.scenario].0.file)
            let timed = await Self.runUnit(unit, plan: plan, runner: runner, request: request)
            Console.line(WorkerProtocol.runLine(unit: position, timed))
        }
        await session.shutdown()
    }

    /// One unit, timed as a plain run times it (vector and ledger checks included).
    static func runUnit(_ unit: RunUnit, plan: Plan, runner: ConformanceRunner, request: RunRequest) async -> TimedRun {
        let stopwatch = Stopwatch()
        let runs = await runner.run([plan.scenarios[unit.scenario]], request: request.only(seed: unit.seed)) { _ in }
        return TimedRun(runs[0], seconds: stopwatch.lap())
    }

    static func crashIfAsked(_ file: String) {
        guard let text = ProcessInfo.processInfo.environment[workerExitVariable], !text.isEmpty, file.contains(text) else { return }
        #if canImport(Glibc)
        Glibc.exit(70)
        #else
        Darwin.exit(70)
        #endif
    }
}

extension RunRequest {
    /// The same request for one seed.
    func only(seed: UInt64) -> RunRequest {
        var copy = self
        copy.seeds = [seed]
        return copy
    }
}

enum WorkerInput {
    /// The next unit index the parent asks for; nil when stdin closes. A line that is not an index
    /// in range ends the worker too (the parent only writes indices it got from the same plan).
    static func next(units: Int) -> Int? {
        guard let line = readLine(), let position = Int(line), position >= 0, position < units else { return nil }
        return position
    }
}
