import ScenarioModel
import ScenarioRunner
import Testing

/// The `inject` step's shape: a valid one loads, and each malformed one gives one precise error.
@Suite struct InjectLoadingTests {
    static let base = ScenarioLoadingTests.base

    @Test func loadsInjectSteps() throws {
        let yaml =
            Self.base + """
                  - name: forged
                    inject: { relay: group, to: bob, copy: { kind: 445, author: alice, nth: 2 }, break: signature }
                  - inject: { relay: keypackages, kind: 30443, author: bob, content: x, tags: [[d, "1"], ["-"]], age: 5s, expires-in: 1m }
                  - inject: { relay: group, copy: { kind: 30443 }, remove-tag: mls_ciphersuite }

                """
        let scenario = try Scenario(yaml: yaml, file: "inject.yaml")
        #expect(scenario.steps.map(\.verb) == ["inject", "inject", "inject"])
        #expect(scenario.steps[0].name == "forged")
    }

    static let malformed: [ScenarioLoadingTests.Malformed] = [
        .init(
            title: "inject needs a kind or a copy", yaml: base + "  - inject: { relay: group }\n", code: .missingField,
            position: "bad.yaml:6:13"),
        .init(title: "inject needs a relay", yaml: base + "  - inject: { kind: 1 }\n", code: .missingField, position: "bad.yaml:6:13"),
        .init(
            title: "a tag must be a list", yaml: base + "  - inject: { relay: group, kind: 1, tags: [h, x] }\n", code: .wrongType,
            position: "bad.yaml:6:45"),
        .init(
            title: "a tag needs a name", yaml: base + "  - inject: { relay: group, kind: 1, tags: [[]] }\n", code: .invalidValue,
            position: "bad.yaml:6:45"),
        .init(
            title: "unknown key in copy", yaml: base + "  - inject: { relay: group, copy: { knd: 445 } }\n", code: .unknownKey,
            position: "bad.yaml:6:37"),
        .init(
            title: "unknown author in copy", yaml: base + "  - inject: { relay: group, copy: { author: dave } }\n", code: .unknownReference,
            position: "bad.yaml:6:45"),
        .init(
            title: "unknown breakage", yaml: base + "  - inject: { relay: group, kind: 1, break: sig }\n", code: .invalidValue,
            position: "bad.yaml:6:45"),
        .init(
            title: "bad expiry duration", yaml: base + "  - inject: { relay: group, kind: 1, expires-in: soon }\n", code: .badDuration,
            position: "bad.yaml:6:50"),
        .init(
            title: "unknown recipient", yaml: base + "  - inject: { relay: group, kind: 1, to: carol }\n", code: .unknownReference,
            position: "bad.yaml:6:42"),
        .init(
            title: "unknown relay", yaml: base + "  - inject: { relay: groups, kind: 1 }\n", code: .unknownReference,
            position: "bad.yaml:6:22"),
    ]

    @Test(arguments: malformed)
    func malformedInjectGivesOnePreciseError(_ sample: ScenarioLoadingTests.Malformed) {
        let error = #expect(throws: ScenarioError.self) { try Scenario(yaml: sample.yaml, file: "bad.yaml") }
        #expect(error?.code == sample.code, "\(error.map(String.init(describing:)) ?? "no error")")
        #expect(error?.location.description == sample.position, "\(error.map(String.init(describing:)) ?? "no error")")
    }
}
