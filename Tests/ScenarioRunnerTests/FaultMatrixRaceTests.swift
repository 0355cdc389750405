import ConformanceTestSupport
import GroupCore
import NativeSwiftEngine
import ScenarioModel
import ScenarioRunner
import Testing

/// The rules that closed the matrix's commit-race cells (docs/group-core.md, "Recovery from lost
/// frames"): each cell passes with its rule and fails with only that rule switched off, on a seed
/// where it failed before the rule existed.
@Suite struct FaultMatrixRaceTests {
    typealias Recovery = CoreConfiguration.Behaviour.Recovery

    /// Runs one committed cell on the Swift engine with `recovery` and `seed`; true when it passes.
    static func passes(_ cell: String, seed: UInt64, recovery: Recovery = Recovery()) async throws -> Bool {
        try await committedScenarioPasses("\(FaultMatrix.folder)/\(cell).yaml", seed: seed, recovery: recovery)
    }

    static func without(_ change: (inout Recovery) -> Void) -> Recovery { recoveryWithout(change) }

    /// bob's rename commit is lost on its way; alice's add is applied by everyone meanwhile. Given
    /// up at its timeout and asked for again, bob's rename follows the add; republished instead, it
    /// ranks first (same second, smaller id) after the others built on the add: a split.
    /// The rule is off by default (next test): switched on, it closes this cell.
    @Test func anOvertakenCommitIsGivenUpNotRepublished() async throws {
        let cell = "add-x-rename/bob-commit-drop"
        #expect(try await Self.passes(cell, seed: 5, recovery: Self.without { $0.abandonsOvertakenCommits = true }))
        #expect(!(try await Self.passes(cell, seed: 5)))
    }

    /// Why the rule is off: alice's rename is only late while carol's chat message comes; given up,
    /// it reaches the relay afterwards, ranks first under MIP-03, and alice cannot apply it.
    @Test func givingUpALateCommitSplitsTheGroup() async throws {
        let cell = "send-x-rename/alice-commit-delay"
        #expect(try await Self.passes(cell, seed: 1))
        #expect(!(try await Self.passes(cell, seed: 1, recovery: Self.without { $0.abandonsOvertakenCommits = true })))
    }

    /// bob's rename reaches the relay a second late and beats alice's removal of carol after its
    /// settle window; carol applied the removal for good. With the rule alice removes carol again
    /// in the winning epoch; without it alice and bob still list carol, who thinks she is out.
    @Test func aCommitReplacedAfterItsSettleWindowIsRedone() async throws {
        let cell = "remove-x-rename/bob-commit-reorder"
        #expect(try await Self.passes(cell, seed: 9))
        #expect(!(try await Self.passes(cell, seed: 9, recovery: Self.without { $0.redoesLateReplacedCommits = false })))
    }

    /// alice's rename, a second late, beats bob's commit of carol's leave; carol applied her
    /// removal. With the rule bob removes carol in the winning epoch; without it carol stays listed.
    @Test func aLostCommitOfALeaveIsFollowedByARemoval() async throws {
        let cell = "leave-x-rename/alice-commit-reorder"
        #expect(try await Self.passes(cell, seed: 1))
        #expect(!(try await Self.passes(cell, seed: 1, recovery: Self.without { $0.redoesLostLeaves = false })))
    }

    /// bob's commit of carol's leave beats alice's rename, which alice merged before meeting
    /// carol's proposal. Our engine keeps the proposal at its rollback point and alice adopts bob's
    /// commit; without that the rollback fails and the group forks.
    @Test func aProposalOfTheRollbackEpochIsKept() async throws {
        let cell = "leave-x-rename/carol-proposal-duplicate"
        #expect(try await Self.passes(cell, seed: 6))
        let broken = try await EngineRecovery.$keepsRollbackEpochProposals.withValue(false) {
            try await Self.passes(cell, seed: 6)
        }
        #expect(!broken)
    }
}
