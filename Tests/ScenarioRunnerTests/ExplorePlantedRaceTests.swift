import Foundation
import NativeSwiftEngine
import Testing

@testable import ScenarioModel
@testable import ScenarioRunner

/// The explorer's acceptance, end to end: a race bug planted in our engine (PlantedRaceBug: a
/// received commit is final, so a third member keeps whichever competing commit it saw first) is
/// found in a 3-member world, shrunk, written as a capsule and replayed from it; without the bug
/// the same space is covered in full with no failure (the twin).
@Suite struct ExplorePlantedRaceTests {
    static let text = """
        name: planted race in a three-member world
        clauses: ["MIP-03 Commit Message Race Conditions"]
        vector: false
        members:
          - { label: alice }
          - { label: bob }
          - { label: carol }
        steps:
          - deliver: all
          - create-group: { by: alice, with: [bob, carol], admins: [bob], name: Team }
          - deliver: all
          - name: both admins rename
            parallel:
              - rename: { by: alice, to: Alpha }
              - rename: { by: bob, to: Bravo }
          - deliver: all
          - wait: { until: converged, within: 1m }
          - check: { race-winner: both admins rename }
        expect:
          converged: true
        """

    static func explorer(seed: UInt64) throws -> Explorer {
        Explorer(executor: swiftOnlyExecutor(), scenario: try Scenario(yaml: text, file: "planted-race.yaml"), seed: seed)
    }

    static func failing(_ checks: [CheckResult]) -> [String] {
        checks.filter { $0.verdict.failsTheRun }.map(\.check).sorted()
    }

    /// Seed 3: the bug hides from the seeded run and from the default schedule (the relay happens
    /// to receive the winning commit first); only another arrival order shows it.
    @Test func exploreFindsShrinksAndReplaysThePlantedRace() async throws {
        let explorer = try Self.explorer(seed: 3)
        let (seeded, byDefault, report) = try await PlantedRaceBug.$receivedCommitIsFinal.withValue(true) {
            let seeded = await swiftOnlyExecutor().execute(
                try Scenario(yaml: Self.text, file: "planted-race.yaml"), seed: 3, selection: .swift, reproduce: "")
            return (seeded, await explorer.run([]), await explorer.explore(budget: ExploreBudget(schedules: 200)))
        }
        #expect(Self.failing(seeded.run.checks) == [], "seed 3 alone does not show the bug")
        #expect(Self.failing(byDefault.run.checks) == [], "nor does the default schedule")
        let failure = try #require(report.failure, "the planted race was not found in \(report.frontier.schedules) schedules")
        #expect(report.frontier.schedules > 1)
        #expect(!failure.schedule.isEmpty)
        #expect(failure.failing.contains { $0.contains("race winner") })
        // Shrunk: no more non-default choices than found, and at most one (carol's order alone decides).
        #expect(failure.schedule.filter { $0 != 0 }.count <= min(1, failure.found.filter { $0 != 0 }.count))

        // The capsule carries the schedule (format 3) and reads back.
        let capsule = explorer.capsule(failure, text: Self.text, versions: ["swift": "0.1"], reproduce: "marmot-conform replay c")
        let read = try FailureCapsule(json: try capsule.json(), file: "c.capsule.json")
        #expect(read.schedule == failure.schedule)
        #expect(read.format == FailureCapsule.scheduleFormatVersion)
        #expect(read.suggestedFileName.hasSuffix("-schedule.capsule.json"))

        // Replay as `marmot-conform replay` does: the runner's pipeline on the capsule's schedule.
        var executor = swiftOnlyExecutor()
        executor.schedule = read.schedule
        let scenario = try Scenario(yaml: read.scenarioText, file: read.scenarioFile)
        let replayed = await PlantedRaceBug.$receivedCommitIsFinal.withValue(true) {
            await ConformanceRunner(executor: executor).run([(scenario, text: read.scenarioText)], request: Self.request(seed: read.seed)) {
                _ in
            }
        }
        #expect(Self.failing(replayed.flatMap(\.checks)) == read.failures.map(\.check).sorted())

        // The twin: the same schedule without the bug passes.
        let clean = await explorer.run(failure.schedule)
        #expect(Self.failing(clean.run.checks) == [])
    }

    /// Without the bug, every schedule of the same world passes and the space is exhausted.
    @Test func withoutTheBugTheWholeSpaceIsCoveredAndPasses() async throws {
        let report = try await Self.explorer(seed: 1).explore(budget: ExploreBudget(schedules: 500))
        #expect(report.failure == nil)
        #expect(report.broken == nil)
        #expect(report.fullCoverage)
        #expect(report.frontier.schedules > 1)
        #expect(report.endStates.count >= 2, "both renames can win: at least two end states")
    }

    /// A seeded world (no prescribed schedule) is not touched by the seam: no choice points.
    @Test func seededRunsMeetNoChoicePoints() async throws {
        let execution = await swiftOnlyExecutor().execute(
            try Scenario(yaml: Self.text, file: "planted-race.yaml"), seed: 1, selection: .swift, reproduce: "")
        #expect(execution.choicePoints.isEmpty)
        #expect(execution.run.fingerprint != nil)
    }

    static func request(seed: UInt64) -> RunRequest {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UInt64.random(in: 0...UInt64.max))")
        return RunRequest(
            selection: .swift, seeds: [seed], updateVectors: false, checkDeterminism: false,
            vectorsDirectory: temporary.appendingPathComponent("vectors"), capsuleDirectory: temporary.appendingPathComponent("capsules"),
            ledger: DefectLedger(entries: []), engineVersions: ["swift": "0.1"], today: "2026-01-01")
    }
}
