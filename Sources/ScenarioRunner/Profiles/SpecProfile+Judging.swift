// Judging a run by the profile its engine claims: a check that enforces a profiled rule cites the
// clause the profile gives that rule, or, when the profile does not hold the rule, is reported as
// `info` instead of judged. The standard profile leaves every check as the oracles made it, so
// today's verdicts, check texts and ledger matches stay exactly as they were.
import EngineInterface
import ScenarioModel

extension MarmotProfile {
    /// `run` re-judged under this profile.
    package func judge(_ run: ScenarioRun) -> ScenarioRun {
        var run = run
        run.profile = self
        guard self != .standard else { return run }
        for index in run.checks.indices {
            guard let rule = run.checks[index].rule else { continue }
            switch rule.status(under: self) {
            case .holds(let clause):
                run.checks[index].clause = clause
            case .notHeld(let why) where run.checks[index].verdict != .error:
                run.checks[index].characterized = run.checks[index].verdict == .pass
                run.checks[index].verdict = .info
                run.checks[index].detail =
                    "not judged under profile \(rawValue) (\(why)); by \(rule.rawValue): "
                    + run.checks[index].detail
            case .notHeld:
                break  // an infrastructure error stays an error whatever the profile
            }
        }
        return run
    }
}

extension ProfiledRule {
    /// The profiled rule an expectation check of `scenario` enforces: the checks about a member whose
    /// core hands unverified kind-445 events to its engine (`unverified-group-events: true`, the
    /// engine probe) enforce the kind-445 signature rule.
    static func tag(_ checks: [CheckResult], of scenario: Scenario) -> [CheckResult] {
        let probes = scenario.members.filter(\.handsUnverifiedGroupEvents).map { "member \($0.label):" }
        guard !probes.isEmpty else { return checks }
        return checks.map { check in
            guard check.rule == nil, probes.contains(where: { check.check.contains($0) }) else { return check }
            var tagged = check
            tagged.rule = .groupEventSignature
            return tagged
        }
    }
}
