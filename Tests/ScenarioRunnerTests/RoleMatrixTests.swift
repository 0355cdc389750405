import ConformanceTestSupport
import Foundation
import GroupCore
import NativeSwiftEngine
import ScenarioModel
import ScenarioRunner
import Testing

/// The role matrix is generated from the permission table, and it can catch a missing check.
@Suite struct RoleMatrixTests {
    /// The checked-in scenarios and report are what the table generates; regenerate with
    /// `marmot-conform role-matrix`.
    @Test func generatedFilesAreUpToDate() throws {
        GeneratedFileChecks.expectCommitted(RoleMatrix.files(), command: "role-matrix")
    }

    static let roleScenarios: [(Scenario, String)] = {
        let folder = Vectors.repositoryRoot.appendingPathComponent("scenarios/roles")
        let paths = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
        return paths.compactMap { path in
            let file = "scenarios/roles/\(path)"
            guard let text = try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8),
                let scenario = try? Scenario(yaml: text, file: file)
            else { return nil }
            return (scenario, file)
        }
    }()

    /// The scenarios that fail on the Swift engine when every member skips `disabled`.
    static func failing(with disabled: Set<PermissionCheck>) async -> [String] {
        var executor = swiftOnlyExecutor()
        executor.disabledPermissionChecks = disabled
        var failing: [String] = []
        for (scenario, file) in roleScenarios {
            let execution = await executor.execute(scenario, seed: 1, selection: .swift, reproduce: file)
            if execution.run.verdict == .fail || execution.run.notRun != nil { failing.append(file) }
        }
        return failing
    }

    /// Without mutation every role scenario passes (otherwise the test below proves nothing).
    @Test func roleScenariosPassWithEveryCheck() async {
        #expect(Self.roleScenarios.count >= 4)
        #expect(await Self.failing(with: []) == [])
    }

    /// Mutation check: skipping any single check of the table (sender and receiver side) makes
    /// at least one role scenario fail.
    @Test(arguments: PermissionCheck.allCases)
    func disablingACheckFailsAScenario(_ check: PermissionCheck) async {
        let failing = await Self.failing(with: [check])
        #expect(!failing.isEmpty, "no role scenario notices that \(check.reason) is not enforced")
    }

    /// Every check of the table is some rule's, and every rule's check is distinct.
    @Test func everyCheckHasOneRule() {
        #expect(
            PermissionTable.rules.map(\.check).sorted { $0.rawValue < $1.rawValue }
                == PermissionCheck.allCases.sorted { $0.rawValue < $1.rawValue })
    }
}
