import Foundation
import ScenarioModel
import ScenarioRunner
import Testing

@Suite struct OutcomeTests {
    static let expected = Outcome.map([
        "members": .map([
            "bob": .map([
                "chats": .list([
                    .map(["name": .string("Team"), "members": .list([.string("alice"), .string("bob")]), "epoch": .integer(3)])
                ])
            ]),
            "alice": .map(["chats": .list([])]),
        ]),
        "converged": .bool(true),
    ])

    @Test func storedFormRoundTrips() throws {
        let text = Self.expected.json()
        #expect(try Outcome(json: text, file: "v.json") == Self.expected)
        // Sorted keys and stable indentation make the stored file diff cleanly.
        #expect(text.hasPrefix("{\n  \"converged\": true,\n  \"members\": {\n    \"alice\": {\n      \"chats\": []"))
    }

    @Test func differencesNameThePathAndBothValues() {
        var observed = Self.expected
        if case .map(var top) = observed, case .map(var members) = top["members"], case .map(var bob) = members["bob"] {
            bob["chats"] = .list([.map(["name": .string("Team"), "members": .list([.string("alice")]), "epoch": .integer(4)])])
            members["bob"] = .map(bob)
            members["carol"] = .map([:])
            top["members"] = .map(members)
            observed = .map(top)
        }
        let diff = Self.expected.differences(from: observed).map(\.description)
        #expect(
            diff == [
                "members.bob.chats[0].epoch: expected 3, observed 4",
                #"members.bob.chats[0].members: expected ["alice", "bob"], observed ["alice"]"#,
                "members.carol: expected nothing, observed {}",
            ])
        #expect(Self.expected.differences(from: Self.expected).isEmpty)
    }

    @Test func fractionalNumbersAndBadJSONAreRejected() {
        #expect(throws: ScenarioError.self) { try Outcome(json: #"{"epoch": 1.5}"#, file: "v.json") }
        #expect(throws: ScenarioError.self) { try Outcome(json: "{", file: "v.json") }
    }
}

@Suite struct FailureCapsuleTests {
    static let capsule = FailureCapsule(
        scenarioFile: "scenarios/race.yaml", scenarioText: "name: race\n", engine: "mdk", engineVersions: ["mdk": "0.8.0"],
        seed: 9, stepLog: ["1 create-group by alice"],
        trace: [TraceLine(micros: 40_000, source: .network, category: "arrive", subject: "g1->bob", detail: "EVENT s1 1a2b3c4d kind 445")],
        steps: [StepMark(title: "step 1 (create-group)", location: "scenarios/race.yaml:3:5", traceIndex: 0)], fingerprint: nil,
        failures: [
            CheckResult(
                check: "converged", clause: Clause("MIP-03", "Commit Message Race Conditions"), verdict: .fail,
                expected: "epoch 2", observed: "epoch 3", detail: "bob is ahead")
        ],
        reproduce: "marmot-conform run scenarios/race.yaml --engine mdk --seed 9")

    @Test func capsuleRoundTrips() throws {
        let data = try Self.capsule.json()
        #expect(try FailureCapsule(json: data, file: "c.json") == Self.capsule)
        #expect(Self.capsule.suggestedFileName == "race-mdk-seed9.capsule.json")
        // Same-named files of different folders (the fault matrix's flows) get different capsules.
        let json = String(decoding: try Self.capsule.json(), as: UTF8.self)
        let nested = try FailureCapsule(
            json: Data(
                json.replacingOccurrences(
                    of: "\"scenarios/race.yaml\"", with: "\"/repo/scenarios/fault-matrix/add-x-rename/bob-commit-drop.yaml\""
                ).utf8), file: "c.json")
        #expect(nested.suggestedFileName == "fault-matrix-add-x-rename-bob-commit-drop-mdk-seed9.capsule.json")
        let elsewhere = try FailureCapsule(
            json: Data(
                json.replacingOccurrences(
                    of: "\"scenarios/race.yaml\"", with: "\"/tmp/elsewhere/bob-commit-drop.yaml\""
                ).utf8), file: "c.json")
        #expect(elsewhere.suggestedFileName == "bob-commit-drop-mdk-seed9.capsule.json")
    }

    @Test func unknownFormatsAndGarbageAreRefused() throws {
        let future = String(decoding: try Self.capsule.json(), as: UTF8.self)
            .replacingOccurrences(of: "\"format\" : \(FailureCapsule.formatVersion)", with: "\"format\" : 99")
        let error = #expect(throws: ScenarioError.self) { try FailureCapsule(json: Data(future.utf8), file: "c.json") }
        #expect(error?.message.contains("format 99") == true)
        #expect(throws: ScenarioError.self) { try FailureCapsule(json: Data("[]".utf8), file: "c.json") }
    }
}
