// What a check made by a step is called. The name is an identity: the known-defects ledger and
// `replay` match checks by it, so it must survive edits that do not change the scenario's
// meaning. A file position does not (inserting a comment line moves every later step), so it
// stays out of the name and goes into the human-readable detail instead.
import ScenarioModel

package enum StepIdentity {
    /// `step 'after the race'` for a named step (names are unique within a scenario); an unnamed
    /// step is `step 6 (check)`: its 1-based index among the scenario's top-level steps and its verb.
    package static func title(of step: Step, number: Int) -> String {
        if let name = step.name { return "step '\(name)'" }
        return "step \(number) (\(step.verb))"
    }

    /// The check with the step's position appended to its detail (`… (at file:line:column)`).
    package static func locate(_ check: CheckResult, at location: SourceLocation) -> CheckResult {
        var located = check
        located.detail = check.detail.isEmpty ? "at \(location)" : "\(check.detail) (at \(location))"
        return located
    }
}
