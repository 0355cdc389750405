import ScenarioModel
import Testing

/// `count` declarations and `a..b` runs of member labels (scenarios/scale/).
@Suite struct NumberedMemberTests {
    static func scenario(members: String, with: String, expect: String = "m01..m12") throws -> Scenario {
        try Scenario(
            yaml: """
                name: numbered
                members:
                  - { label: alice }
                \(members)
                steps:
                  - create-group: { by: alice, with: \(with), name: T }
                expect:
                  members:
                    \(expect): { chats: [{ name: T }] }
                """, file: "numbered.yaml")
    }

    @Test func countDeclaresPaddedLabelsAndRunsExpandEverywhere() throws {
        let loaded = try Self.scenario(members: "  - { label: m, count: 12, engine: mdk }", with: "[m01..m12]")
        #expect(loaded.members.map(\.label) == ["alice"] + (1...12).map { $0 < 10 ? "m0\($0)" : "m\($0)" })
        #expect(loaded.members.dropFirst().allSatisfy { $0.engine == .mdk })
        guard case .member(let step) = loaded.steps[0].action, case .createGroup(let with, _, _, _, _, _) = step.action else {
            Issue.record("not a create-group step")
            return
        }
        #expect(with.count == 12 && with.first == "m01" && with.last == "m12")
        #expect(loaded.expectations?.members.map(\.label).count == 12)
    }

    @Test func runsMustNameDeclaredMembers() {
        #expect(throws: ScenarioError.self) { try Self.scenario(members: "  - { label: m, count: 12 }", with: "[m01..m13]") }
        #expect(throws: ScenarioError.self) { try Self.scenario(members: "  - { label: m, count: 12 }", with: "[m1..m12]") }
        #expect(throws: ScenarioError.self) { try Self.scenario(members: "  - { label: m, count: 12, name: Same }", with: "[m01..m12]") }
        #expect(throws: ScenarioError.self) { try Self.scenario(members: "  - { label: m, count: 1001 }", with: "[m0001..m0012]") }
    }

    @Test func labelsWithoutARunKeepTheirMeaning() {
        #expect(LabelRange("m01") == nil)
        #expect(LabelRange("a..b") == nil)
        #expect(LabelRange("m09..m01") == nil)
        #expect(LabelRange("m08..m10")?.labels == ["m08", "m09", "m10"])
        #expect(LabelRange.declared("s", count: 3) == ["s1", "s2", "s3"])
    }
}
