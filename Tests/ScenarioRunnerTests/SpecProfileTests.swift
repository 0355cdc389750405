import ConformanceTestSupport
import EngineInterface
import Foundation
import ScenarioModel
import ScenarioRunner
import Testing

/// Spec profiles: the standard profile keeps every verdict; `marmot-current` reports the created_at
/// race rule instead of judging it and cites the adopted spec for kind-445 signatures.
@Suite struct SpecProfileTests {
    static let race = CheckResult(
        check: "step 'after': race winner of 'both rename'", clause: Clause("MIP-03", "Commit Message Race Conditions"), verdict: .fail,
        detail: "MIP-03 order: …", rule: .commitRaceByTimestamp)
    static let signature = CheckResult(
        check: "member bob: chats", clause: Clause("MIP-01", "Group State Changes"), verdict: .fail, rule: .groupEventSignature)
    static let plain = CheckResult(check: "converged", clause: Clause("MIP-03", "Commit Message Race Conditions"), verdict: .fail)

    static func run(_ checks: [CheckResult]) -> ScenarioRun {
        ScenarioRun(scenario: "s", file: "scenarios/x/s.yaml", engine: "swift", seed: 1, checks: checks, reproduce: "-")
    }

    @Test func theStandardProfileLeavesEveryCheckAsItWas() {
        #expect(MarmotProfile.standard == .legacy)
        let before = Self.run([Self.race, Self.signature, Self.plain])
        let after = MarmotProfile.standard.judge(before)
        #expect(after.checks == before.checks)
        #expect(after.profile == .legacy)
        #expect(after.verdict == .fail)
    }

    @Test func marmotCurrentReportsTheTimestampRuleAndCitesTheAdoptedSignatureRule() {
        let after = MarmotProfile.current.judge(Self.run([Self.race, Self.signature, Self.plain]))
        #expect(after.checks[0].verdict == .info)
        #expect(after.checks[0].detail.hasPrefix("not judged under profile current"))
        #expect(after.checks[1].verdict == .fail)
        #expect(after.checks[1].clause == Clause("transports/nostr.md", "Group message delivery"))
        // Convergence is every profile's rule: still judged, still failing.
        #expect(after.checks[2] == Self.plain)
        #expect(after.verdict == .fail)
        // Twin: with only the race check failing, the profile decides the run's verdict (a check
        // the profile does not hold is a note, characterized as not held, and the run passes).
        let unheld = MarmotProfile.current.judge(Self.run([Self.race]))
        #expect(unheld.verdict == .pass && unheld.checks[0].characterized == false)
        #expect(MarmotProfile.legacy.judge(Self.run([Self.race])).verdict == .fail)
    }

    /// An infrastructure error is never turned into info by a profile.
    @Test func anErrorStaysAnErrorUnderEveryProfile() {
        var broken = Self.race
        broken.verdict = .error
        for profile in MarmotProfile.allCases { #expect(profile.judge(Self.run([broken])).verdict == .error) }
    }

    @Test func everyRuleHasAStatusUnderEveryProfileAndTheStandardHoldsThemAll() {
        for rule in ProfiledRule.allCases {
            guard case .holds = rule.status(under: .standard) else {
                Issue.record("the standard profile must hold \(rule): it keeps today's verdicts")
                continue
            }
        }
        #expect(ProfiledRule.commitRaceByTimestamp.status(under: .current) != ProfiledRule.commitRaceByTimestamp.status(under: .legacy))
    }

    /// The engine probe's checks (a member handing unverified kind-445 events to its engine) carry
    /// the signature rule; the race oracle's carry the timestamp rule; both from real runs (on our
    /// legacy engine: a current run needs an engine that speaks the current profile), re-judged
    /// under the current profile as a current run would be.
    @Test func realRunsTagTheirProfiledChecks() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = RunRequest(
            selection: .swift, seeds: [1], updateVectors: false, checkDeterminism: false,
            vectorsDirectory: Vectors.repositoryRoot.appendingPathComponent("vectors/scenarios"), capsuleDirectory: directory,
            ledger: DefectLedger(entries: []), engineVersions: ["swift": "0.1"], today: "2026-01-01")
        var scenarios: [(Scenario, text: String)] = []
        for file in ["scenarios/engine-probes/forged-wrapper-signature.yaml", "scenarios/concurrent-commits/rename-rename-race.yaml"] {
            let text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
            scenarios.append((try Scenario(yaml: text, file: file), text))
        }
        let legacy = await ConformanceRunner(executor: swiftOnlyExecutor()).run(scenarios, request: request) { _ in }
        #expect(legacy.count == 2)
        #expect(legacy.allSatisfy { $0.profile == .legacy && $0.verdict == .pass }, "\(legacy.map(\.checks))")
        let runs = legacy.map { MarmotProfile.current.judge($0) }
        #expect(runs.allSatisfy { $0.profile == .current && !$0.verdict.failsTheRun }, "\(runs.map(\.checks))")
        let probe = runs[0].checks.filter { $0.rule == .groupEventSignature }
        #expect(!probe.isEmpty)
        #expect(probe.allSatisfy { $0.clause == Clause("transports/nostr.md", "Group message delivery") && $0.verdict == .pass })
        let race = runs[1].checks.filter { $0.rule == .commitRaceByTimestamp }
        #expect(race.count == 1)
        #expect(race.allSatisfy { $0.verdict == .info })
        #expect(legacy[1].checks.filter { $0.rule == .commitRaceByTimestamp }.allSatisfy { $0.verdict == .pass })
        #expect(runs[1].checks.contains { $0.check == "converged" && $0.verdict == .pass })
        #expect(runs[1].clauses == ["MIP-03 Commit Message Race Conditions"])
    }
}
