import Testing

// Steps decode into typed actions when the file loads (the verb table's decoders): the interpreter
// reads these values, never YAML. Defaults the table applies (a link's role, a reaction's emoji,
// `keep-history`) are part of the decoded value.
@testable import ScenarioModel

@Suite struct TypedStepTests {
    static let yaml = """
        name: typed
        members: [{ label: alice }, { label: bob }]
        steps:
          - create-group: { by: alice, with: bob, name: Team, on-partial-failure: abort }
          - name: link
            create-link: { by: alice, forged: true }
          - react: { by: bob, message: hi }
          - mute: { by: bob }
          - fault: { apply: delay, member: bob, kind: 445, for: 2s, direction: to-member, nth: 2 }
          - wait: { until: quiescent, within: 1m, never: errors }
          - check: { converged: true, members: { bob: { errors: [] } } }
          - parallel:
              - rename: { by: alice, to: A }
          - deliver: all
          - advance: { by: 250ms }
        """

    @Test func stepsDecodeIntoTypedActions() throws {
        let steps = try Scenario(yaml: Self.yaml, file: "typed.yaml").steps
        #expect(
            steps[0].action
                == .member(
                    MemberStep(
                        by: "alice", forged: false,
                        action: .createGroup(
                            with: ["bob"], name: "Team", description: "", onPartialFailure: .abort, admins: [], role: nil))))
        #expect(steps[0].requirement == .engine(.createGroup))
        #expect(
            steps[1].action
                == .member(MemberStep(by: "alice", forged: true, action: .createLink(role: .member, approval: false, group: nil))))
        #expect(steps[1].requirement == .engine(.applicationMessages))
        #expect(steps[2].action == .member(MemberStep(by: "bob", forged: false, action: .react(message: "hi", emoji: "+", group: nil))))
        #expect(steps[3].requirement == .local)
        #expect(
            steps[4].action
                == .fault(
                    FaultStep(
                        kind: .delay, relay: nil, member: "bob", eventKind: 445, author: nil, nth: 2, prefix: nil,
                        duration: ScenarioDuration(milliseconds: 2_000), direction: .toMember)))
        #expect(steps[4].requirement == .world)
        #expect(steps[5].action == .wait(WaitStep(until: .quiescent, within: ScenarioDuration(milliseconds: 60_000), never: [.errors])))
        #expect(
            steps[6].action
                == .check(
                    CheckStep(
                        expectations: Expectations(
                            converged: true, decryptable: false,
                            members: [
                                MemberExpectation(label: "bob", fields: [MemberExpectation.Field(name: "errors", value: .list([]))])
                            ]),
                        raceWinner: nil)))
        #expect(steps[7].substeps.map(\.action) == [.member(MemberStep(by: "alice", forged: false, action: .rename(to: "A", group: nil)))])
        #expect(steps[8].action == .deliver)
        #expect(steps[9].action == .advance(ScenarioDuration(milliseconds: 250)))
    }

    /// A `check` step's member expectations are read at load like the `expect` section's, so a
    /// misspelt field is an error at its position rather than a failing check after the run.
    @Test func checkStepExpectationsAreCheckedAtLoad() {
        let yaml = """
            name: bad check
            members: [{ label: alice }]
            steps:
              - check: { members: { alice: { chatz: [] } } }
            """
        #expect(throws: ScenarioError.self) { try Scenario(yaml: yaml, file: "bad.yaml") }
        do { _ = try Scenario(yaml: yaml, file: "bad.yaml") } catch {
            #expect(error.description.hasPrefix("bad.yaml:4:34: unknown key 'chatz' in expectations of alice"))
        }
    }

    @Test func everyVerbIsDefinedOnce() {
        let names = StepVocabulary.verbs.map(\.name)
        #expect(Set(names).count == names.count)
        // 60 member and world verbs (with `rotate-routing`, `disband`, `crash`, the invitation answers, the
        // prepared-group verbs and `send-many`), and `attack` (the hostile member).
        #expect(names.count == 61)
    }
}
