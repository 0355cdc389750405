import ConformanceTestSupport
import Foundation
import GroupCore
import ScenarioModel
import ScenarioRunner
import Testing

/// The catch-up depth family is generated from its table, covers every pair of factor values, and
/// fails when the recovery rules it depends on are switched off.
@Suite struct CatchUpDepthTests {
    typealias Recovery = CoreConfiguration.Behaviour.Recovery

    /// The checked-in scenarios, sample and report are what the table generates, and no scenario
    /// the table no longer generates is left behind; regenerate with `marmot-conform catch-up-depth`.
    @Test func generatedFilesAreUpToDate() throws {
        GeneratedFileChecks.expectCommitted(CatchUpDepth.files(), ownedFolder: CatchUpDepth.folder, command: "catch-up-depth")
    }

    /// Every cell is a valid scenario, and the family stays a sensible size.
    @Test func everyCellLoads() throws {
        let files = CatchUpDepth.files().filter { $0.path.hasSuffix(".yaml") }
        #expect(files.count == CatchUpDepth.cellCount)
        #expect((30...60).contains(files.count))
        for file in files {
            #expect(throws: Never.self, "\(file.path)") { _ = try Scenario(yaml: file.text, file: file.path) }
        }
    }

    /// The selection is pairwise covering: every pair of factor values some valid cell combines is
    /// in a chosen cell, every depth 1…8 and every spacing and away member is there.
    @Test func selectionCoversEveryPair() {
        let needed = Set(CatchUpDepth.allValidCells().flatMap(CatchUpDepth.pairs(of:)))
        let covered = Set(CatchUpDepth.cells().flatMap(CatchUpDepth.pairs(of:)))
        #expect(needed.subtracting(covered).isEmpty, "\(needed.subtracting(covered).sorted())")
        #expect(Set(CatchUpDepth.cells().map(\.depth)) == Set(1...8))
    }

    /// Twin of the coverage check: dropping any chosen cell loses a pair (the greedy selection
    /// holds no cell it does not need, and the check above would notice a missing one).
    @Test func everyChosenCellIsNeededForCoverage() {
        let cells = CatchUpDepth.cells()
        let needed = Set(CatchUpDepth.allValidCells().flatMap(CatchUpDepth.pairs(of:)))
        let withoutLast = Set(cells.dropLast().flatMap(CatchUpDepth.pairs(of:)))
        let withoutFirst = Set(cells.dropFirst().flatMap(CatchUpDepth.pairs(of:)))
        #expect(!needed.subtracting(withoutLast).isEmpty || !needed.subtracting(withoutFirst).isEmpty)
    }

    /// A removed member learns it; a re-added one rejoins; the commits' planned state is legal.
    @Test func plansAreLegal() {
        for cell in CatchUpDepth.cells() {
            let (stages, group) = CatchUpDepth.plan(cell)
            #expect(stages.flatMap(\.commits).count == cell.depth, "\(cell.id)")
            #expect(group.members.contains("alice"), "\(cell.id)")
            switch cell.away {
            case .removed: #expect(group.removed.contains("erin") && !group.members.contains("erin"), "\(cell.id)")
            case .readded: #expect(group.members.contains("erin"), "\(cell.id)")
            case .member, .admin: #expect(group.members.contains(cell.away.label), "\(cell.id)")
            }
            #expect(stages.flatMap(\.commits).allSatisfy { $0.by != cell.away.label }, "\(cell.id)")
        }
    }

    /// A cell marked as an MDK 0.8.0 defect is excused only by the ledger (its mixed runs too when
    /// the member away runs MDK there), and no other cell of the family is ledgered.
    @Test func mdkDefectCellsAreLedgered() throws {
        let text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent("known-defects.yaml"), encoding: .utf8)
        let ledger = try DefectLedger(yaml: text, file: "known-defects.yaml")
        let family = ledger.entries.filter { $0.scenario.hasPrefix("catch-up depth ") }
        #expect(!CatchUpDepth.mdkDefectScenarios.isEmpty)
        #expect(Set(family.filter { $0.engine == "mdk" }.map(\.scenario)) == Set(CatchUpDepth.mdkDefectScenarios))
        #expect(Set(family.filter { $0.engine == "mixed" }.map(\.scenario)) == Set(CatchUpDepth.mixedDefectScenarios))
        #expect(Set(CatchUpDepth.mixedDefectScenarios).isSubset(of: Set(CatchUpDepth.mdkDefectScenarios)))
        #expect(family.allSatisfy { $0.engine == "mdk" || $0.engine == "mixed" })
    }

    /// Runs one committed cell on the Swift engine, seed 1, with `recovery`; true when it passes.
    static func passes(_ id: String, recovery: Recovery) async throws -> Bool {
        try await committedScenarioPasses("\(CatchUpDepth.folder)/\(id).yaml", recovery: recovery)
    }

    static func without(_ change: (inout Recovery) -> Void) -> Recovery { recoveryWithout(change) }

    /// The rule this family brought: erin, removed and added again while away, meets the welcome
    /// before her removal (k2) or her removal before the new epoch's events (k7); without welcomes
    /// held for the catch-up and the events kept while out she stays out, or misses what was written.
    @Test(arguments: ["k2-spaced-readded-1-admin", "k7-spaced-readded-1-admin"])
    func heldWelcomesAreNeededByTheFamily(_ id: String) async throws {
        #expect(try await Self.passes(id, recovery: Recovery()))
        #expect(!(try await Self.passes(id, recovery: Self.without { $0.rejoinsAfterCatchUp = false })))
    }

    /// Commits of one second reach the returning member in id order: without the kept events of a
    /// later epoch it stays behind.
    @Test func futureEventsAreNeededByTheFamily() async throws {
        let id = "k8-same-second-admin-2-admins"
        #expect(try await Self.passes(id, recovery: Recovery()))
        #expect(!(try await Self.passes(id, recovery: Self.without { $0.retriesFutureEvents = false })))
    }
}
