import GroupCore
import ScenarioModel
import ScenarioRunner
import Testing

/// A member back from an absence recovers a backlog larger than the relay serves for one REQ
/// (docs/group-core.md, "Catch-up through a result cap"; scenarios/scale/backlog-1000.yaml at full
/// size). Here 300 messages behind a relay that serves the newest 200, so it stays quick in a debug
/// build: the first answer is capped, the page brings the rest.
@Suite struct CatchUpPagingTests {
    static let scenario = """
        name: a 300-message backlog through a 200-result relay cap
        vector: false
        relays:
          - { name: relay, max-results: 200 }
        members:
          - { label: alice }
          - { label: bob }
        steps:
          - advance: { by: 2s }
          - create-group: { by: alice, with: [bob], name: Backlog }
          - wait: { until: converged, within: 1m }
          - fault: { apply: partition, member: bob }
          - send-many: { by: alice, text: backlog, count: 300, every: 200ms }
          - deliver: all
          - fault: { apply: heal, member: bob }
          - advance: { by: 1m }
          - wait: { until: converged, within: 2m }
        expect:
          converged: true
          members:
            bob: { chats: [{ name: Backlog, unread: 300 }] }
        """

    static func run(pagesCatchUp: Bool) async throws -> ScenarioRun {
        let scenario = try Scenario(yaml: scenario, file: "catch-up-paging.yaml")
        var executor = swiftOnlyExecutor()
        executor.recovery = recoveryWithout { $0.pagesCatchUp = pagesCatchUp }
        return await executor.execute(scenario, seed: 1, selection: .swift, reproduce: "catch-up-paging").run
    }

    /// With paging, every message arrives once: `no lost message` passes and bob shows 300.
    @Test func theBacklogIsRecoveredWholeThroughTheCap() async throws {
        let run = try await Self.run(pagesCatchUp: true)
        let failed = run.checks.filter { $0.verdict != .pass && $0.verdict != .info }
        #expect(failed.isEmpty, "\(failed.map { "\($0.check): \($0.observed ?? $0.detail)" })")
        #expect(run.checks.contains { $0.check == "no lost message" && $0.verdict == .pass })
    }

    /// Twin: without paging bob gets only the newest 200, and `no lost message` names the rest.
    @Test func withoutPagingTheOldestAreLost() async throws {
        let run = try await Self.run(pagesCatchUp: false)
        let lost = run.checks.first { $0.check == "no lost message" }
        #expect(lost?.verdict == .fail)
        #expect(lost?.observed?.contains("bob lacks alice: \"backlog 001\"") == true)
        #expect(lost?.observed?.contains("backlog 300") == false)
    }
}
