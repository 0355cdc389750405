// `run --matrix`: each scenario under assignments of the --engines to its members (docs/engines.md,
// "The interop matrix"). The async part only awaits; planning and printing are synchronous
// (Swift 6.3.1 crashed splitting long async functions in release builds).
import Foundation
import ScenarioModel
import ScenarioRunner

extension MarmotConform.Run {
    /// One column of one scenario: the assignment and the run's engine name.
    struct MatrixColumn {
        let scenario: Scenario
        let text: String
        let assignment: [EngineSelection]
        let selection: EngineSelection
    }

    var matrixEngines: [EngineSelection] { options.engineList?.engines ?? [.swift, .mdk] }

    func runMatrix(_ plan: Plan) async throws {
        let session = try await EngineSession.start(for: matrixEngines, context: plan.engines, driverTimeout: options.driverTimeout)
        let (columns, report) = matrixPlan(plan, session: session)
        Console.line(
            "marmot-conform: interop matrix, \(plan.scenarios.count) scenario(s), \(columns.count) run(s) on \(matrixEngines.map(\.rawValue).joined(separator: ", "))"
        )
        let runner = ConformanceRunner(executor: try executor(session))
        let progress = RunProgress(total: columns.count * plan.seeds.count)
        var cells: [(MatrixColumn, [ScenarioRun])] = []
        for column in columns {
            let request = try matrixRequest(plan, column: column, versions: session.versions)
            cells.append((column, await runner.run([(column.scenario, text: column.text)], request: request) { progress.record($0) }))
        }
        await session.shutdown()
        try finishMatrix(plan, report: report, cells: cells, progress: progress)
    }

    /// Every scenario's columns, and the report with its rows (cells still empty).
    func matrixPlan(_ plan: Plan, session: EngineSession) -> ([MatrixColumn], MatrixReport) {
        var report = MatrixReport(engines: matrixEngines.map(\.rawValue), seed: plan.seeds.first ?? 1)
        var columns: [MatrixColumn] = []
        for (scenario, text) in plan.scenarios {
            let free = InteropMatrix.freeMembers(of: scenario)
            let (assignments, coverage) = InteropMatrix.assignments(members: free.count, engines: matrixEngines)
            report.rows.append(.init(scenario: scenario.name, file: scenario.file, members: free, coverage: coverage, cells: []))
            for assignment in assignments {
                columns.append(
                    MatrixColumn(
                        scenario: scenario, text: text, assignment: assignment,
                        selection: Self.selection(for: assignment, scenario: scenario, session: session)))
            }
        }
        return (columns, report)
    }

    /// The run's engine name for an assignment: one engine for all is that engine, the assignment
    /// `mixed` makes is `mixed` (so the ledger entries, pinned fingerprints and reproduce commands
    /// of those runs apply unchanged), anything else `matrix:a,b,…`.
    static func selection(for assignment: [EngineSelection], scenario: Scenario, session: EngineSession) -> EngineSelection {
        if let first = assignment.first, assignment.allSatisfy({ $0 == first }) { return first }
        if assignment.isEmpty { return .swift }
        let explicit = EngineSelection(kind: .assignment(assignment))
        if Set(assignment) == Set(EngineSelection.mixed.engines),
            session.engines.assignment(for: scenario, selection: .mixed) == session.engines.assignment(for: scenario, selection: explicit)
        {
            return .mixed
        }
        return explicit
    }

    func matrixRequest(_ plan: Plan, column: MatrixColumn, versions: [String: String]) throws -> RunRequest {
        var versions = versions
        // A matrix cell's version, for the ledger: every engine of the session (as for mixed).
        versions[column.selection.rawValue] = versions[column.selection.rawValue] ?? versions[EngineSelection.mixed.rawValue]
        return try options.request(
            repo: plan.repo, ledger: plan.ledgerURL, selection: column.selection, seeds: plan.seeds, capsules: plan.capsuleURL,
            versions: versions, checkDeterminism: checkDeterminism)
    }

    func finishMatrix(_ plan: Plan, report: MatrixReport, cells: [(MatrixColumn, [ScenarioRun])], progress: RunProgress) throws {
        var report = report
        for (column, runs) in cells {
            guard let index = report.rows.firstIndex(where: { $0.file == column.scenario.file }) else { continue }
            report.rows[index].cells += runs.map { MatrixCell(run: $0, assignment: column.assignment.map(\.rawValue)) }
        }
        try Reports.write(progress.timed, junit: plan.junit, json: plan.json)
        Console.line(report.text)
        if let path = matrixMd { try Data(report.markdown.utf8).write(to: plan.repo.output(path)) }
        if let path = matrixJson { try report.json().write(to: plan.repo.output(path)) }
        Console.line(String(format: "matrix: %.1f s wall clock", progress.stopwatch.total))
        if plan.invalid > 0 || !report.holds { throw ExitStatus.failure }
    }
}
