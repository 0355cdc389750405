import ConformanceTestSupport
import Foundation
import Testing

/// `marmot-conform explore` as a user runs it (the planted-bug acceptance runs in-process, in
/// ScenarioRunnerTests/ExplorePlantedRaceTests, since its switch is task-local).
@Suite(.serialized) struct ExploreCommandTests {
    /// A three-member rename race: its whole space is small, so the default budget covers it.
    @Test func smallRaceIsCoveredInFullWithItsFigures() throws {
        let directory = try RunAndReplayTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("race.yaml")
        try """
        name: three-member rename race
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
        """.write(to: file, atomically: true, encoding: .utf8)
        let listed = try RunAndReplayTests.run(["explore", file.path, "--seed", "3", "--list-points"])
        #expect(listed.status == 0, "\(listed.text)")
        #expect(listed.text.contains("0: parallel both admins rename (2 alternatives)"))
        let output = try RunAndReplayTests.run(["explore", file.path, "--seed", "3", "--budget", "100"])
        #expect(output.status == 0, "\(output.text)")
        #expect(output.text.contains("coverage: full"))
        #expect(output.text.contains("distinct schedule(s) in"))
        #expect(output.text.contains("2 distinct end state(s)"), "either rename can win")
    }

    /// A budget that is neither a count nor seconds is a usage error; so is a folder of scenarios.
    @Test func badBudgetOrSeveralScenariosAreUsageErrors() throws {
        let budget = try RunAndReplayTests.run(["explore", "scenarios/concurrent-commits/rename-rename-race.yaml", "--budget", "soon"])
        #expect(budget.status == 64, "\(budget.text)")
        let folder = try RunAndReplayTests.run(["explore", "scenarios/concurrent-commits"])
        #expect(folder.status == 64, "\(folder.text)")
        #expect(folder.text.contains("explore takes one scenario file"))
    }
}
