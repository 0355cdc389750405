import ConformanceTestSupport
import Foundation
import ScenarioModel
import ScenarioRunner
import Testing

@Suite struct ScenarioLoadingTests {
    static let valid = """
        name: two admins rename concurrently
        description: both renames are committed in the same epoch; everyone converges on the earliest
        clauses: ["MIP-03 Commit Message Race Conditions"]
        relays:
          - { name: kp, roles: [key-packages] }
          - { name: g1, roles: [group, inbox], policies: [reject-protected], max-event-bytes: 131072 }
        members:
          - { label: alice, engine: mdk, relays: [kp, g1] }
          - { label: bob, relays: [kp, g1] }
          - label: carol
            name: Carol
            relays: g1
        steps:
          - name: setup
            create-group: { by: alice, with: [bob, carol], name: Team }
          - deliver: all
          - name: hold welcomes
            fault: { apply: hold, kind: 1059, relay: g1 }
          - release: { hold: hold welcomes }
          - parallel:
              - rename: { by: alice, to: A }
              - rename: { by: bob, to: B }
          - wait: { until: converged, within: 1m30s }
          - advance: { by: 2s }
        expect:
          converged: true
        """

    @Test func loadsAValidScenario() throws {
        let scenario = try Scenario(yaml: Self.valid, file: "race.yaml")
        #expect(scenario.name == "two admins rename concurrently")
        #expect(scenario.members.map(\.label) == ["alice", "bob", "carol"])
        #expect(scenario.members[0].engine == .mdk && scenario.members[1].engine == nil)
        #expect(scenario.members[2].relays == ["g1"] && scenario.members[2].profileName == "Carol")
        #expect(scenario.relays[1].policies == [.rejectProtected])
        #expect(scenario.relays[0].roles == [.keyPackages] && scenario.relays[1].roles == [.group, .inbox])
        #expect(scenario.relays[0].maximumEventBytes == nil && scenario.relays[1].maximumEventBytes == 131_072)
        #expect(scenario.steps.map(\.verb) == ["create-group", "deliver", "fault", "release", "parallel", "wait", "advance"])
        #expect(scenario.steps[4].substeps.map(\.verb) == ["rename", "rename"])
        #expect(scenario.steps[0].name == "setup")
        #expect(scenario.steps[0].location.description == "race.yaml:14:5")
        #expect(scenario.expectations != nil)
    }

    /// A malformed file, the code of the error and its exact `file:line:column`.
    struct Malformed: Sendable, CustomTestStringConvertible {
        let title: String
        let yaml: String
        let code: ScenarioError.Code
        let position: String
        var testDescription: String { title }
    }

    static let base = "name: x\nmembers:\n  - { label: alice }\n  - { label: bob }\nsteps:\n"

    static let malformed: [Malformed] = [
        Malformed(title: "syntax error", yaml: "name: x\nmembers: [alice\nsteps: []\n", code: .yamlSyntax, position: "bad.yaml:3:6"),
        Malformed(
            title: "unknown step", yaml: base + "  - crate-group: { by: alice, with: bob }\n",
            code: .unknownStep, position: "bad.yaml:6:5"),
        Malformed(
            title: "unknown member", yaml: base + "  - create-group: { by: alice, with: [bob, dave] }\n",
            code: .unknownReference, position: "bad.yaml:6:44"),
        Malformed(
            title: "wrong type", yaml: base + "  - fault: { apply: drop, kind: many }\n", code: .wrongType, position: "bad.yaml:6:33"),
        Malformed(title: "missing field", yaml: base + "  - rename: { by: alice }\n", code: .missingField, position: "bad.yaml:6:13"),
        Malformed(
            title: "bad duration", yaml: base + "  - wait: { until: converged, within: 30 }\n",
            code: .badDuration, position: "bad.yaml:6:39"),
        Malformed(
            title: "duplicate step name", yaml: base + "  - { name: a, deliver: all }\n  - name: a\n    deliver: all\n",
            code: .duplicateName, position: "bad.yaml:7:11"),
        Malformed(title: "unknown key", yaml: base + "  - send: { by: alice, txt: hi }\n", code: .unknownKey, position: "bad.yaml:6:24"),
        Malformed(
            title: "two verbs in one step", yaml: base + "  - deliver: all\n    advance: { by: 1s }\n",
            code: .ambiguousStep, position: "bad.yaml:7:5"),
        Malformed(
            title: "duplicate key", yaml: "name: x\nname: y\nmembers: []\nsteps: []\n", code: .duplicateKey, position: "bad.yaml:2:1"),
        Malformed(title: "missing top-level field", yaml: "name: x\nmembers: []\n", code: .missingField, position: "bad.yaml:1:1"),
        Malformed(
            title: "release of an unknown hold", yaml: base + "  - release: { hold: later }\n",
            code: .unknownReference, position: "bad.yaml:6:22"),
        Malformed(
            title: "wrong engine", yaml: "name: x\nmembers:\n  - { label: a, engine: rust }\nsteps: []\n",
            code: .invalidValue, position: "bad.yaml:3:25"),
        Malformed(
            title: "integer out of range", yaml: base + "  - fault: { apply: drop, kind: 70000 }\n", code: .invalidValue,
            position: "bad.yaml:6:33"),
        Malformed(title: "deliver takes a word", yaml: base + "  - deliver: { kind: 445 }\n", code: .wrongType, position: "bad.yaml:6:14"),
        Malformed(
            title: "duplicate key in a flow mapping", yaml: base + "  - send: { by: alice, text: a, text: b }\n",
            code: .duplicateKey, position: "bad.yaml:6:33"),
        Malformed(title: "step is not a mapping", yaml: base + "  - deliver\n", code: .wrongType, position: "bad.yaml:6:5"),
        Malformed(
            title: "unknown never condition", yaml: base + "  - wait: { until: quiescent, within: 1s, never: [errors, oops] }\n",
            code: .invalidValue, position: "bad.yaml:6:59"),
        Malformed(
            title: "race-winner of an unknown step", yaml: base + "  - check: { race-winner: renames }\n",
            code: .unknownReference, position: "bad.yaml:6:27"),
        Malformed(
            title: "typo in expect", yaml: base + "  - deliver: all\nexpect:\n  convergd: true\n",
            code: .unknownKey, position: "bad.yaml:8:3"),
        Malformed(
            title: "expectation for an unknown member", yaml: base + "  - deliver: all\nexpect:\n  members:\n    dave: {}\n",
            code: .unknownReference, position: "bad.yaml:9:5"),
        Malformed(title: "an anchor", yaml: base + "  - &d { deliver: all }\n", code: .unsupportedYAML, position: "bad.yaml:6:5"),
        Malformed(
            title: "an alias of an anchored scalar", yaml: "name: &n x\nmembers: []\nsteps: []\ndescription: *n\n",
            code: .unsupportedYAML, position: "bad.yaml:1:7"),
        Malformed(
            title: "author of a one-time-key kind", yaml: base + "  - fault: { apply: drop, kind: 445, author: alice }\n",
            code: .invalidValue, position: "bad.yaml:6:38"),
        Malformed(
            title: "author of a gift wrap", yaml: base + "  - fault: { apply: tamper, member: bob, kind: 1059, author: alice }\n",
            code: .invalidValue, position: "bad.yaml:6:54"),
        Malformed(
            title: "a field the fault ignores", yaml: base + "  - fault: { apply: partition, member: bob, kind: 445 }\n",
            code: .invalidValue, position: "bad.yaml:6:45"),
        Malformed(
            title: "a duration on a drop", yaml: base + "  - fault: { apply: drop, kind: 445, for: 1s }\n",
            code: .invalidValue, position: "bad.yaml:6:38"),
        Malformed(
            title: "an image that is neither a file name nor base64",
            yaml: base + "  - set-image: { by: alice, image: not-base64!, mime-type: image/png }\n", code: .invalidValue,
            position: "bad.yaml:6:36"),
        Malformed(
            title: "an image outside scenarios/assets",
            yaml: base + "  - set-image: { by: alice, image: ../../etc/x.png, mime-type: image/png }\n", code: .invalidValue,
            position: "bad.yaml:6:36"),
        Malformed(
            title: "an image file with no scenarios/ folder above the file",
            yaml: base + "  - set-image: { by: alice, image: avatar.png, mime-type: image/png }\n", code: .invalidValue,
            position: "bad.yaml:6:36"),
        Malformed(
            title: "a field a blob fault ignores", yaml: base + "  - fault: { apply: blob-lose, member: bob }\n",
            code: .invalidValue, position: "bad.yaml:6:32"),
        Malformed(
            title: "a relay event limit below 1 KiB",
            yaml: "name: x\nrelays:\n  - { name: r, max-event-bytes: 100 }\nmembers:\n  - { label: a }\nsteps: []\n",
            code: .invalidValue, position: "bad.yaml:3:33"),
        Malformed(
            title: "a relay event limit that is not a number",
            yaml: "name: x\nrelays:\n  - { name: r, max-event-bytes: 128k }\nmembers:\n  - { label: a }\nsteps: []\n",
            code: .wrongType, position: "bad.yaml:3:33"),
        Malformed(
            title: "unknown merge mode", yaml: "name: x\nmembers:\n  - { label: a, merges-own-commit: later }\nsteps: []\n",
            code: .invalidValue, position: "bad.yaml:3:36"),
        Malformed(
            title: "unknown relay role",
            yaml: "name: x\nrelays:\n  - { name: r, roles: [group, inboxes] }\nmembers:\n  - { label: a }\nsteps: []\n",
            code: .invalidValue, position: "bad.yaml:3:31"),
        Malformed(
            title: "unknown relay policy",
            yaml: "name: x\nrelays:\n  - { name: r, policies: [hanging] }\nmembers:\n  - { label: a }\nsteps: []\n",
            code: .invalidValue, position: "bad.yaml:3:27"),
        Malformed(
            title: "unknown chat-relay conduct", yaml: "name: x\nmembers:\n  - { label: a, chat-relay: lies }\nsteps: []\n",
            code: .invalidValue, position: "bad.yaml:3:29"),
        Malformed(
            title: "an engine the file format does not know", yaml: "name: x\nmembers:\n  - { label: a, engine: mixed }\nsteps: []\n",
            code: .invalidValue, position: "bad.yaml:3:25"),
        Malformed(
            title: "unknown update-delivery fault", yaml: "name: x\nmembers:\n  - { label: a, update-delivery: [drop, lose] }\nsteps: []\n",
            code: .invalidValue, position: "bad.yaml:3:41"),
    ]

    @Test(arguments: malformed)
    func malformedFileGivesOnePreciseError(_ sample: Malformed) {
        let error = #expect(throws: ScenarioError.self) { try Scenario(yaml: sample.yaml, file: "bad.yaml") }
        print("\(sample.title): \(error.map(String.init(describing:)) ?? "no error")")
        #expect(error?.code == sample.code)
        #expect(error?.location.description == sample.position)
    }

    /// `set-image` reads its picture when the file loads: a file under the nearest `scenarios/assets/`
    /// above the scenario, or base64 inline; a missing file is an error at the field.
    @Test func setImageReadsAnAssetOrInlineBase64() throws {
        let png = try Data(contentsOf: Vectors.repositoryRoot.appendingPathComponent("scenarios/assets/avatar.png"))
        let file = Vectors.repositoryRoot.appendingPathComponent("scenarios/state-model/new.yaml").path
        func image(_ value: String, file: String) throws -> [UInt8]? {
            let scenario = try Scenario(
                yaml: Self.base + "  - set-image: { by: alice, image: \(value), mime-type: image/png }\n", file: file)
            guard case .member(let step) = scenario.steps.first?.action, case .setImage(let bytes, let type, _) = step.action else {
                return nil
            }
            #expect(type == "image/png")
            return bytes
        }
        #expect(try image("avatar.png", file: file) == [UInt8](png))
        #expect(try image(png.base64EncodedString(), file: "anywhere.yaml") == [UInt8](png))
        let missing = #expect(throws: ScenarioError.self) { try image("nothing-here.png", file: file) }
        #expect(missing?.code == .invalidValue)
        #expect(missing?.description.contains("cannot read the image scenarios/assets/nothing-here.png") == true)
    }

    /// Nine lines that a loader expanding aliases would turn into 9^9 (387 million) scalars: refused
    /// where the first anchor is defined, before anything is expanded (the CLI answers in ~0.05 s).
    @Test func aliasBombIsRefusedAtItsFirstAnchor() {
        var yaml = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for (previous, name) in zip("abcdefgh", "bcdefghi") {
            yaml += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
        }
        let error = #expect(throws: ScenarioError.self) { try Scenario(yaml: yaml, file: "bomb.yaml") }
        #expect(error?.code == .unsupportedYAML)
        #expect(error?.description.hasPrefix("bomb.yaml:1:4: YAML anchors and aliases (&a, *a) are not supported") == true)
        // The ledger shares the loader.
        #expect(throws: ScenarioError.self) { try DefectLedger(yaml: yaml, file: "l.yaml") }
    }

    /// Relay roles and policies, a member's engine and chat-relay conduct are decoded into the
    /// model's enums at load, and a bad word is refused there with the choices in the message.
    @Test func memberAndRelayWordsAreDecodedAtLoad() throws {
        let scenario = try Scenario(
            yaml: """
                name: words
                relays:
                  - { name: r, roles: [discovery, key-packages], policies: [down, require-auth, keeps-expired, hung] }
                members:
                  - { label: a, engine: swift, chat-relay: forges, relays: [r] }
                  - { label: b, chat-relay: honest }
                steps: []
                """, file: "words.yaml")
        #expect(scenario.relays[0].roles == [.discovery, .keyPackages])
        #expect(scenario.relays[0].policies == [.down, .requireAuth, .keepsExpired, .hung])
        #expect(scenario.members.map(\.engine) == [.swift, nil])
        #expect(scenario.members.map(\.chatRelay) == [.forges, .honest])
        let error = #expect(throws: ScenarioError.self) {
            try Scenario(
                yaml: "name: x\nrelays:\n  - { name: r, policies: [reject-protect] }\nmembers:\n  - { label: a }\nsteps: []\n",
                file: "p.yaml")
        }
        #expect(
            error?.description == "p.yaml:3:27: a relay policy must be one of reject-protected, down, require-auth, keeps-expired, hung, "
                + "found 'reject-protect' (did you mean 'reject-protected'?)")
    }

    @Test func faultSelectorsThatCanMatchStillLoad() throws {
        _ = try Scenario(
            yaml: Self.base + """
                  - fault: { apply: drop, kind: 30443, author: alice }
                  - fault: { apply: delay, member: bob, kind: 445, for: 1s, direction: to-member }
                  - fault: { apply: tamper, member: bob, kind: 30443, author: alice }
                  - fault: { apply: partition, member: bob }
                  - inject: { relay: group, copy: { kind: 445, author: alice } }

                """, file: "ok.yaml")
    }

    @Test func errorsSuggestTheNearestName() throws {
        let error = #expect(throws: ScenarioError.self) {
            try Scenario(yaml: Self.base + "  - crate-group: { by: alice, with: bob }\n", file: "s.yaml")
        }
        #expect(error?.description.contains("did you mean 'create-group'?") == true)
    }

    @Test(arguments: [("500ms", 500), ("30s", 30_000), ("2m", 120_000), ("1h", 3_600_000), ("1m30s", 90_000)] as [(String, Int64)])
    func durationsParse(_ text: String, _ milliseconds: Int64) throws {
        let yaml = Self.base + "  - advance: { by: \(text) }\n"
        let scenario = try Scenario(yaml: yaml, file: "d.yaml")
        #expect(scenario.steps.count == 1)
        let node = try YAMLLoader.load("d: \(text)", file: "d.yaml")
        let fields = try node.fields(of: "t", allowed: ["d"])
        #expect(try fields.required("d").duration("d").milliseconds == milliseconds)
    }

    @Test(arguments: ["", "30", "s", "5x", "1.5s", "-1s", "99999999999999999999h"])
    func badDurationsAreRejected(_ text: String) throws {
        let node = try YAMLLoader.load("d: '\(text)'", file: "d.yaml")
        let fields = try node.fields(of: "t", allowed: ["d"])
        let error = #expect(throws: ScenarioError.self) { try fields.required("d").duration("d") }
        #expect(error?.code == .badDuration)
    }
}

@Suite struct ScenarioSchemaTests {
    /// The committed schema is what the loader's tables generate; regenerate with
    /// `marmot-conform schema > scenarios/schema.json`.
    @Test func committedSchemaMatchesTheVocabulary() throws {
        let committed = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent("scenarios/schema.json"), encoding: .utf8)
        #expect(committed == ScenarioSchema.json())
    }

    @Test func schemaListsEveryVerb() throws {
        let schema = ScenarioSchema.json()
        for verb in StepVocabulary.verbs {
            #expect(schema.contains("\"verb-\(verb.name)\""))
        }
    }
}
