import ConformanceTestSupport
import Foundation
import ScenarioModel
import ScenarioRunner
import Testing

/// The runner's check that every action ends in an outcome holds on a real scenario, and fails
/// when the core drops an outcome (its twin).
@Suite struct ActionOutcomeCheckTests {
    static let check = "every action ends in an outcome"

    static func verdict(of file: String, dropping: Bool) async throws -> Verdict? {
        let text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
        let scenario = try Scenario(yaml: text, file: file)
        var executor = swiftOnlyExecutor()
        executor.dropsActionOutcomes = dropping
        let execution = await executor.execute(scenario, seed: 1, selection: .swift, reproduce: file)
        return execution.run.checks.first { $0.check == check }?.verdict
    }

    /// Every action of a scenario with commits, sends and an add ends in an outcome.
    @Test(arguments: ["scenarios/visibility/blocked-sender.yaml", "scenarios/state-model/what-the-chat-list-shows.yaml"])
    func everyActionEnds(_ file: String) async throws {
        #expect(try await Self.verdict(of: file, dropping: false) == .pass)
    }

    /// The twin: a core that drops its outcomes fails the check.
    @Test func droppedOutcomesFail() async throws {
        #expect(try await Self.verdict(of: "scenarios/visibility/blocked-sender.yaml", dropping: true) == .fail)
    }
}
