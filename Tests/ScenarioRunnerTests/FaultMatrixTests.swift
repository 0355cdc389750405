import ConformanceTestSupport
import Foundation
import GroupCore
import ScenarioModel
import ScenarioRunner
import Testing

/// The fault matrix is generated from its table, every cell loads, and the matrix notices when a
/// recovery rule of GroupCore is switched off.
@Suite struct FaultMatrixTests {
    typealias Recovery = CoreConfiguration.Behaviour.Recovery

    /// The checked-in scenarios and report are what the table generates, and no scenario the table
    /// no longer generates is left behind; regenerate with `marmot-conform fault-matrix`.
    @Test func generatedFilesAreUpToDate() throws {
        GeneratedFileChecks.expectCommitted(FaultMatrix.files(), ownedFolder: FaultMatrix.folder, command: "fault-matrix")
    }

    /// Every cell is a valid scenario: the loader refuses selectors that can never match.
    @Test func everyCellLoads() throws {
        let files = FaultMatrix.files().filter { $0.path.hasSuffix(".yaml") }
        #expect(files.count == FaultMatrix.cellCount)
        for file in files {
            #expect(throws: Never.self, "\(file.path)") { _ = try Scenario(yaml: file.text, file: file.path) }
        }
    }

    /// A cell marked as an MDK 0.8.0 defect is excused only by the ledger: each has mdk entries
    /// there (a marked cell without them would fail the gate, one ledgered without the mark would
    /// hide an open defect from the matrix's report), and no other fault-matrix cell is ledgered.
    @Test func mdkDefectCellsAreLedgered() throws {
        let text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent("known-defects.yaml"), encoding: .utf8)
        let ledger = try DefectLedger(yaml: text, file: "known-defects.yaml")
        let ledgered = Set(ledger.entries.filter { $0.scenario.hasPrefix("fault matrix ") }.map(\.scenario))
        #expect(!FaultMatrix.mdkDefectScenarios.isEmpty)
        #expect(Set(FaultMatrix.mdkDefectScenarios) == ledgered)
        #expect(ledger.entries.filter { $0.scenario.hasPrefix("fault matrix ") }.allSatisfy { $0.engine == "mdk" })
    }

    /// Runs one committed cell on the Swift engine, seed 1, with `recovery`; true when it passes.
    static func passes(_ path: String, recovery: Recovery) async throws -> Bool {
        try await committedScenarioPasses(path, recovery: recovery)
    }

    static func without(_ change: (inout Recovery) -> Void) -> Recovery { recoveryWithout(change) }

    /// Acceptance (issue 20): switching off the welcome retry makes a matrix cell fail.
    @Test func welcomeRetryIsNeededByTheMatrix() async throws {
        let cell = "\(FaultMatrix.folder)/add/welcome-invitee-inbox-down.yaml"
        #expect(try await Self.passes(cell, recovery: Recovery()))
        #expect(!(try await Self.passes(cell, recovery: Self.without { $0.welcomes = false })))
    }

    /// Acceptance (issue 20): switching off the stored-commit recovery makes a matrix cell fail.
    @Test func storedCommitRecoveryIsNeededByTheMatrix() async throws {
        let cell = "\(FaultMatrix.folder)/add/commit-withhold-ok.yaml"
        #expect(try await Self.passes(cell, recovery: Recovery()))
        #expect(!(try await Self.passes(cell, recovery: Self.without { $0.storedCommits = false })))
    }

    /// Acceptance (issue 20): switching off the restart persistence (the member starts again with an
    /// empty core state) makes a matrix cell fail: the sender forgets its chat and its message.
    @Test func restartPersistenceIsNeededByTheMatrix() async throws {
        let cell = "\(FaultMatrix.folder)/send/message-restart.yaml"
        #expect(try await Self.passes(cell, recovery: Recovery()))
        #expect(!(try await Self.passes(cell, recovery: Self.without { $0.persistsAcrossRestart = false })))
    }

    /// The rule the matrix's `reject` cells brought (a refused message is sent again) is needed too.
    @Test func refusedMessageRetryIsNeededByTheMatrix() async throws {
        let cell = "\(FaultMatrix.folder)/send/message-reject.yaml"
        #expect(try await Self.passes(cell, recovery: Recovery()))
        #expect(!(try await Self.passes(cell, recovery: Self.without { $0.refusedPublishes = false })))
    }
}
