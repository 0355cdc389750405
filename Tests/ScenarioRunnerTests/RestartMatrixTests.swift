import ConformanceTestSupport
import EngineInterface
import Foundation
import GroupCore
import NativeSwiftEngine
import ScenarioModel
import ScenarioRunner
import Testing

/// The restart matrix is generated from its table, every cell passes on our engine, and each
/// boundary's cells depend on our engine's recovery there (the twins).
@Suite struct RestartMatrixTests {
    /// The checked-in scenarios and report are what the table generates; regenerate with
    /// `marmot-conform restart-matrix`.
    @Test func generatedFilesAreUpToDate() {
        GeneratedFileChecks.expectCommitted(RestartMatrix.files(), ownedFolder: RestartMatrix.folder, command: "restart-matrix")
    }

    /// The scenario vocabulary's crash points are the engine interface's, one for one.
    @Test func crashPointNamesMatch() {
        #expect(CrashPointName.allCases.map(\.rawValue) == CrashPoint.allCases.map(\.rawValue))
        for name in CrashPointName.allCases {
            #expect(CrashPoint(rawValue: name.rawValue)?.insideEngine == name.insideEngine, "\(name.rawValue)")
        }
    }

    /// A twin: a cell of each boundary, and the recovery rule whose absence must make it fail.
    struct Twin: Sendable, CustomTestStringConvertible {
        let boundary: Int
        let cell: String
        let rule: String
        let off: @Sendable (inout CoreConfiguration.Behaviour.Recovery) -> Void
        var testDescription: String { "boundary \(boundary): \(cell) without \(rule)" }
    }

    static let twins: [Twin] = [
        Twin(boundary: 1, cell: "add-alice-prepared-not-published", rule: "writesAhead") { $0.writesAhead = false },
        Twin(boundary: 2, cell: "rename-alice-acknowledgement-uncertain", rule: "resendsAfterRestart, storedCommits") {
            $0.resendsAfterRestart = false
            $0.storedCommits = false
        },
        Twin(boundary: 3, cell: "rename-carol-received-not-applied", rule: "resubscribesAfterRestart") {
            $0.resubscribesAfterRestart = false
        },
        Twin(boundary: 3, cell: "rename-carol-engine-unsaved", rule: "resubscribesAfterRestart") { $0.resubscribesAfterRestart = false },
        Twin(boundary: 3, cell: "rename-alice-confirmed-not-merged", rule: "resendsAfterRestart, storedCommits") {
            $0.resendsAfterRestart = false
            $0.storedCommits = false
        },
        Twin(boundary: 4, cell: "add-bob-applied-not-derived", rule: "resubscribesAfterRestart") { $0.resubscribesAfterRestart = false },
        // The engine applied the rename before carol died; nothing after it makes her app read it.
        Twin(boundary: 4, cell: "rename-carol-applied-not-derived", rule: "rederivesAfterRestart") { $0.rederivesAfterRestart = false },
        Twin(boundary: 5, cell: "add-alice-settle-timer-fired", rule: "restartsTimers") { $0.restartsTimers = false },
        // The spec's two recoveries of a frozen batch: resolve the identical batch (kept with the
        // pending commit it waits on), or wholly recollect its input (catch-up after resubscribing).
        Twin(boundary: 6, cell: "race-alice-held-batch-partial", rule: "keepsHeldBatch, resubscribesAfterRestart") {
            $0.keepsHeldBatch = false
            $0.resubscribesAfterRestart = false
        },
        // Without catching up after the restart carol never meets the winning commit.
        Twin(boundary: 7, cell: "switch-carol-branch-switch-unsaved", rule: "resubscribesAfterRestart") {
            $0.resubscribesAfterRestart = false
        },
        // Without it the damaged group's later inputs go to an engine that has no record of it.
        Twin(boundary: 8, cell: "corrupt-record-bob-received-not-applied", rule: "marksUnrecoverableGroups") {
            $0.marksUnrecoverableGroups = false
        },
        Twin(boundary: 8, cell: "missing-record-bob-applied-not-derived", rule: "marksUnrecoverableGroups") {
            $0.marksUnrecoverableGroups = false
        },
        Twin(boundary: 9, cell: "leave-carol-leaving-not-published", rule: "writesAhead") { $0.writesAhead = false },
    ]

    static func path(_ cell: String) -> String { "\(RestartMatrix.folder)/\(cell).yaml" }

    /// With every recovery rule on, the twins' cells pass (otherwise their failing proves nothing).
    @Test(arguments: twins)
    func cellPassesWithRecovery(_ twin: Twin) async throws {
        #expect(try await committedScenarioPasses(Self.path(twin.cell), recovery: CoreConfiguration.Behaviour.Recovery()))
    }

    /// Without the boundary's recovery rule its cell fails.
    @Test(arguments: twins)
    func cellFailsWithoutRecovery(_ twin: Twin) async throws {
        #expect(try await !committedScenarioPasses(Self.path(twin.cell), recovery: recoveryWithout(twin.off)))
    }

    /// The profile a generated cell runs under (the disband cells: current only).
    static func profile(_ cell: String) -> MarmotProfile { cell.hasPrefix("disband-switch") ? .current : .standard }

    /// Boundary 7's own recovery lies in the engine: the rollback point (with, on the current
    /// profile, the committer order of its competitors) survives the restart, so a member that died
    /// mid-switch, restarted on the losing commit, can still switch to the winner. Without it, each
    /// branch-switch cell fails.
    @Test(arguments: [
        "switch-carol-branch-switch-unsaved", "switch-bob-branch-switch-unsaved", "switch-message-carol-branch-switch-unsaved",
        "switch-message-bob-branch-switch-unsaved", "disband-switch-carol-branch-switch-unsaved",
    ])
    func branchSwitchCellFailsWithoutPersistedRollbackPoint(_ cell: String) async throws {
        let passes = try await EngineRecovery.$persistsRollbackPoint.withValue(false) {
            try await committedScenarioPasses(
                Self.path(cell), recovery: CoreConfiguration.Behaviour.Recovery(), profile: Self.profile(cell))
        }
        #expect(!passes)
    }

    /// The switch cells cannot pass vacuously: each reaches its crash point, and the snapshots
    /// compared hold inputs MIP-03 did not select (`superseded`).
    @Test(arguments: [
        "switch-carol-branch-switch-unsaved", "switch-bob-branch-switch-unsaved", "switch-carol-received-not-applied",
        "switch-message-carol-branch-switch-unsaved", "switch-message-bob-branch-switch-unsaved",
        "switch-message-carol-received-not-applied", "disband-switch-carol-branch-switch-unsaved",
        "disband-switch-renamer-branch-switch-unsaved",
    ])
    func switchCellsReallySwitch(_ cell: String) async throws {
        let run = try await Self.run(cell, seed: 1)
        let equal = run.checks.first { $0.check == "restarted members' snapshots equal the uninterrupted reference's" }
        #expect(equal?.verdict == .pass)
        #expect(equal?.observed?.contains("superseded") == true, "\(equal?.observed ?? "no check")")
    }

    /// One committed cell on our engine, its scenario's profile, `recovery`.
    static func run(_ cell: String, seed: UInt64, recovery: CoreConfiguration.Behaviour.Recovery = .init()) async throws -> ScenarioRun {
        let path = Self.path(cell)
        let text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        var executor = swiftOnlyExecutor()
        executor.recovery = recovery
        return await executor.execute(
            try Scenario(yaml: text, file: path), seed: seed, selection: .swift, reproduce: path, profile: profile(cell)
        ).run
    }

    /// A switch that supersedes a delivered payload: without the engine's invalidation carol keeps
    /// bob's message of the losing branch shown while alice can never read it, and the cell fails
    /// (`no lost message` fails the uninterrupted run itself, as before the invalidation existed).
    @Test func supersededMessageCellFailsWithoutInvalidation() async throws {
        let run = try await EngineRecovery.$invalidatesSupersededPayloads.withValue(false) {
            try await Self.run("switch-message-carol-branch-switch-unsaved", seed: 1)
        }
        #expect(run.verdict == .fail)
        let lost = run.checks.first { $0.check == "no lost message" }
        #expect(lost?.verdict == .fail && lost?.observed?.contains("alice lacks bob") == true, "\(lost?.observed ?? "no check")")
    }

    /// With invalidation and re-sending, the message is not lost: bob sends it again in the winning
    /// epoch, and alice reads it.
    @Test func supersededMessageIsSentAgainAndNotLost() async throws {
        let run = try await Self.run("switch-message-carol-received-not-applied", seed: 1)
        #expect(run.checks.first { $0.check == "no lost message" }?.verdict == .pass)
        #expect(run.checks.first { $0.check == "restarted members' snapshots equal the uninterrupted reference's" }?.verdict == .pass)
    }

    /// Not sent again, the message of the losing branch is accounted for only because bob was told
    /// (`core.messageSuperseded`): the oracle passes it, where a silent drop fails (the test above).
    @Test func supersededMessageReportedIsAccountedFor() async throws {
        let run = try await Self.run(
            "switch-message-carol-received-not-applied", seed: 1, recovery: recoveryWithout { $0.resendsSupersededMessages = false })
        let lost = run.checks.first { $0.check == "no lost message" }
        #expect(lost?.verdict == .pass, "\(lost?.observed ?? "no check")")
    }

    /// The crash step that names several members (`member: [alice, bob]`) dies on exactly one: the
    /// renamer of the group whose disband won, alice on seed 1 and bob on seed 2 (the committer
    /// order is drawn by the seed), and the cell passes on both.
    @Test(arguments: [(UInt64(1), "alice"), (UInt64(2), "bob")])
    func runTimeCrashDiesOnTheSwitchingMember(_ seed: UInt64, _ member: String) async throws {
        let run = try await Self.run("disband-switch-renamer-branch-switch-unsaved", seed: seed)
        let reached = run.checks.first { $0.check == "every armed crash point was reached" }
        #expect(
            reached?.verdict == .pass && reached?.observed == "\(member) at branch-switch-unsaved", "\(reached?.observed ?? "no check")")
        #expect(run.checks.first { $0.check == "restarted members' snapshots equal the uninterrupted reference's" }?.verdict == .pass)
    }

    /// Every boundary the table covers has a twin.
    @Test func everyCoveredBoundaryHasATwin() {
        let covered = Set(RestartMatrix.flowsCells.map(\.boundary))
        #expect(covered.isSubset(of: Set(Self.twins.map(\.boundary))), "\(covered.subtracting(Self.twins.map(\.boundary)).sorted())")
    }

    /// A crash point armed and never reached fails the run: a cell that crashes nothing tests nothing.
    @Test func unreachedCrashPointFails() async throws {
        let text = """
            name: unreached crash point
            members: [{ label: alice }, { label: bob }]
            steps:
              - deliver: all
              - crash: { member: bob, at: settle-timer-fired }
              - deliver: all
            """
        let scenario = try Scenario(yaml: text, file: "unreached.yaml")
        let execution = await swiftOnlyExecutor().execute(scenario, seed: 1, selection: .swift, reproduce: "unreached.yaml")
        let check = execution.run.checks.first { $0.check == "every armed crash point was reached" }
        #expect(check?.verdict == .fail)
    }
}
