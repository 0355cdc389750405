import ConformanceTestSupport
import Foundation
import GroupCore
import ScenarioModel
import ScenarioRunner
import Testing

/// The visibility matrix is generated from its table, every view asks GroupCore's one rule, and
/// the matrix notices a view that does not.
@Suite struct VisibilityMatrixTests {
    /// The checked-in scenarios and report are what the table generates; regenerate with
    /// `marmot-conform visibility-matrix`.
    @Test func generatedFilesAreUpToDate() {
        GeneratedFileChecks.expectCommitted(VisibilityMatrix.files(), ownedFolder: "scenarios/visibility", command: "visibility-matrix")
    }

    /// Every view is a column, and every reason a scenario can bring about on its own is a row.
    @Test func tableCoversEveryView() {
        #expect(VisibilityMatrix.rows.count == 5)
        #expect(Set(VisibilityMatrix.rows.map(\.reason)).count == VisibilityMatrix.rows.count)
        for view in MessageView.allCases {
            #expect(VisibilityMatrix.rows.contains { $0.cell(view) == .hidden }, "no row checks \(view.rawValue)")
        }
    }

    static let scenarios: [(Scenario, String)] = VisibilityMatrix.rows.compactMap { row in
        let file = "scenarios/visibility/\(row.name).yaml"
        guard let text = try? String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(file), encoding: .utf8),
            let scenario = try? Scenario(yaml: text, file: file)
        else { return nil }
        return (scenario, file)
    }

    /// The matrix scenarios that fail on the Swift engine when every member's `bypassed` views skip the rule.
    static func failing(bypassing bypassed: Set<MessageView>) async -> [String] {
        var executor = swiftOnlyExecutor()
        executor.bypassedVisibilityViews = bypassed
        var failing: [String] = []
        for (scenario, file) in scenarios {
            let execution = await executor.execute(scenario, seed: 1, selection: .swift, reproduce: file)
            if execution.run.verdict == .fail || execution.run.notRun != nil { failing.append(file) }
        }
        return failing
    }

    /// Without a bypass every cell passes (otherwise the twin below proves nothing).
    @Test func everyCellPasses() async {
        #expect(Self.scenarios.count == VisibilityMatrix.rows.count)
        #expect(await Self.failing(bypassing: []) == [])
    }

    /// The twin: one view keeping its own filter (here: none) makes the matrix fail.
    @Test(arguments: MessageView.allCases)
    func aViewBypassingTheRuleFails(_ view: MessageView) async {
        let failing = await Self.failing(bypassing: [view])
        #expect(!failing.isEmpty, "no visibility scenario notices \(view.rawValue) showing hidden messages")
    }
}
