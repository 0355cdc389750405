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

    /// bob's rename commit is lost on its way and republished; by then everyone else applied
    /// alice's add and dave's self-update on top of it, and refuses the rename that MIP-03 ranks
    /// first (same second, smaller id). bob merged it at its late OK; meeting dave's commit, his
    /// engine follows the branch the group built on. Without that bob reads nobody: a split.
    @Test func aCommitTheGroupBuiltOnIsFollowed() async throws {
        let cell = "add-x-rename/bob-commit-drop"
        #expect(try await Self.passes(cell, seed: 5))
        let broken = try await EngineRecovery.$followsBuiltOnRival.withValue(false) { try await Self.passes(cell, seed: 5) }
        #expect(!broken)
    }

    /// The same for bob's removal of carol: bob's engine follows alice's add, and GroupCore,
    /// told which commit of ours was left, removes carol again in the epoch that won. Without
    /// the engine rule bob forks; without the core's, carol stays a member everywhere.
    @Test func aRemovalLeftForTheBuiltOnBranchIsRedone() async throws {
        let cell = "add-x-remove/bob-commit-delay"
        #expect(try await Self.passes(cell, seed: 4))
        let forked = try await EngineRecovery.$followsBuiltOnRival.withValue(false) { try await Self.passes(cell, seed: 4) }
        #expect(!forked)
        #expect(!(try await Self.passes(cell, seed: 4, recovery: Self.without { $0.redoesCommitsLeftForRival = false })))
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
