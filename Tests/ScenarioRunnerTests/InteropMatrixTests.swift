import ScenarioModel
import Testing

@testable import ScenarioRunner

/// The interop matrix's columns and the ledger's assignment patterns (docs/engines.md).
@Suite struct InteropMatrixTests {
    /// Every (member a, member b, engine x, engine y) that some column shows.
    static func missingPairs(_ columns: [[String]], members: Int, engines: [String]) -> [String] {
        var missing: [String] = []
        for a in 0..<members {
            for b in (a + 1)..<members {
                for x in engines {
                    for y in engines where !columns.contains(where: { $0[a] == x && $0[b] == y }) { missing.append("\(a)=\(x) \(b)=\(y)") }
                }
            }
        }
        return missing
    }

    @Test func smallScenariosGetEveryAssignment() {
        let (columns, coverage) = InteropMatrix.assignments(members: 4, engines: ["swift", "mdk"])
        #expect(coverage == .all)
        #expect(columns.count == 16)
        #expect(Set(columns.map { $0.joined(separator: ",") }).count == 16)
        #expect(columns.first == ["swift", "swift", "swift", "swift"] && columns.last == ["mdk", "mdk", "mdk", "mdk"])
    }

    /// Five members over two engines (32 assignments) and 30 members over three get a pairwise set:
    /// far fewer columns, every pair of members seeing every pair of engines.
    @Test(arguments: [(5, ["swift", "mdk"]), (30, ["swift", "mdk", "other"]), (3, Array((0..<5).map { "e\($0)" }))])
    func largerScenariosGetAPairwiseCoveringSet(members: Int, engines: [String]) {
        let (columns, coverage) = InteropMatrix.assignments(members: members, engines: engines)
        #expect(coverage == .pairwise)
        #expect(Self.missingPairs(columns, members: members, engines: engines).isEmpty)
        #expect(columns.count < (0..<members).reduce(1) { product, _ in min(product * engines.count, 1 << 40) })
        #expect(columns == InteropMatrix.assignments(members: members, engines: engines).columns, "deterministic")
    }

    /// The twin: the coverage oracle notices a column taken away.
    @Test func theCoverageCheckNoticesAMissingColumn() {
        let (columns, _) = InteropMatrix.assignments(members: 5, engines: ["swift", "mdk"])
        #expect(!Self.missingPairs(Array(columns.dropLast()), members: 5, engines: ["swift", "mdk"]).isEmpty)
    }

    @Test func ledgerAssignmentPatternsMatchPositionally() {
        #expect(DefectLedger.engine("mdk", matches: "mdk"))
        #expect(!DefectLedger.engine("mdk", matches: "matrix:mdk,mdk"))
        #expect(DefectLedger.engine("matrix:*,mdk,*", matches: "matrix:swift,mdk,mdk"))
        #expect(!DefectLedger.engine("matrix:*,mdk,*", matches: "matrix:mdk,swift,mdk"))
        #expect(!DefectLedger.engine("matrix:*,mdk", matches: "matrix:swift,mdk,mdk"), "a pattern names every free member")
    }

    /// An assignment gives the free members their engines in order; a pinned member keeps its own.
    @Test func anAssignmentSkipsPinnedMembers() throws {
        let scenario = try Scenario(
            yaml: """
                name: pinned
                members:
                  - { label: alice }
                  - { label: mallory, engine: swift }
                  - { label: bob }
                steps:
                  - deliver: all
                """, file: "pinned.yaml")
        let engines = EngineSet(["swift": Self.unused, "mdk": Self.unused])
        #expect(InteropMatrix.freeMembers(of: scenario) == ["alice", "bob"])
        let cell = EngineSelection(kind: .assignment([.mdk, .swift]))
        #expect(
            engines.assignment(for: scenario, selection: cell) == [
                "alice": .engine("mdk"), "mallory": .engine("swift"), "bob": .engine("swift"),
            ])
    }

    /// `mixed` alternates the run's registered engines, the built-in ones first in `EngineName`'s
    /// order; an assignment shorter than the free members leaves the rest unassigned (not run,
    /// with a reason); a single engine is every free member's.
    @Test func selectionsAssignTheRegisteredEngines() throws {
        let scenario = try Scenario(
            yaml: """
                name: four
                members:
                  - { label: a }
                  - { label: b }
                  - { label: c, engine: swift }
                  - { label: d }
                steps:
                  - deliver: all
                """, file: "four.yaml")
        let three = EngineSet(["other": Self.unused, "mdk": Self.unused, "swift": Self.unused])
        #expect(
            three.assignment(for: scenario, selection: .mixed)
                == ["a": .engine("swift"), "b": .engine("mdk"), "c": .engine("swift"), "d": .engine("swift")])
        let onlyOurs = EngineSet(["swift": Self.unused])
        #expect(onlyOurs.assignment(for: scenario, selection: .mixed).values.allSatisfy { $0 == .engine("swift") })
        let short = three.assignment(for: scenario, selection: EngineSelection(kind: .assignment([.mdk])))
        #expect(short["a"] == .engine("mdk") && short["b"] == .unassigned(assignmentLength: 1) && short["c"] == .engine("swift"))
        #expect(short["d"]?.description == "(none: the assignment names 1 members)")
        let named = three.assignment(for: scenario, selection: EngineSelection(engine: "other"))
        #expect(named == ["a": .engine("other"), "b": .engine("other"), "c": .engine("swift"), "d": .engine("other")])
    }

    static let unused = EngineSet.Entry(factory: { _ in throw CancellationError() }, deterministic: true)
}
