// Verdicts, after h2spec and Autobahn: every check cites the clause it enforces, and outcomes that
// are not plain failures (a missing feature, behaviour the spec leaves open, a known engine defect)
// have verdicts of their own so that a CI gate can act on them.
import EngineInterface

/// The clause of a specification a check enforces.
package struct Clause: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The document, e.g. `MIP-03`, `RFC 9420`, `NIP-01`.
    package let spec: String
    /// The section, e.g. `Commit Message Race Conditions` or `§12.4`.
    package let section: String

    package init(_ spec: String, _ section: String) {
        self.spec = spec
        self.section = section
    }

    package var description: String { section.hasPrefix("§") ? "\(spec) \(section)" : "\(spec) \"\(section)\"" }
}

/// The outcome of one check, or of a whole scenario run.
package enum Verdict: String, Hashable, Sendable, Codable, CaseIterable {
    case pass
    case fail
    /// The run could not be judged: infrastructure failed (an engine did not start, a driver died,
    /// timed out or answered malformed, a state read failed). Never a pass, never a skip.
    case error
    /// The engine declares that it lacks a capability the scenario needs (decided before step one).
    case unsupported
    /// Behaviour the spec leaves open; reported, never failing.
    case info
    /// A failure recorded in the known-defects ledger; does not fail CI.
    case knownDefect = "known-defect"
    /// A check listed in the ledger passed: the entry can be removed.
    case unexpectedPass = "unexpected-pass"

    /// Whether this verdict makes a conformance run fail (exit status 1).
    package var failsTheRun: Bool { self == .fail || self == .error }
}

/// The result of one oracle check.
package struct CheckResult: Hashable, Sendable, Codable {
    /// A stable name, e.g. `converged` or `member bob: members`.
    package let check: String
    package var clause: Clause
    package var verdict: Verdict
    package let expected: String?
    package let observed: String?
    /// Why, in a sentence (for a known defect: the ledger's reason).
    package var detail: String
    /// The rule this check enforces when the spec profiles differ on it (`MarmotProfile`); nil for
    /// a rule every profile holds alike.
    package var rule: ProfiledRule?

    package init(
        check: String, clause: Clause, verdict: Verdict, expected: String? = nil, observed: String? = nil, detail: String = "",
        rule: ProfiledRule? = nil
    ) {
        self.check = check
        self.clause = clause
        self.verdict = verdict
        self.expected = expected
        self.observed = observed
        self.detail = detail
        self.rule = rule
    }
}

/// One scenario run on one engine selection with one seed.
package struct ScenarioRun: Hashable, Sendable, Codable {
    package let scenario: String
    package let file: String
    /// `swift`, `mdk` or `mixed`.
    package let engine: String
    package let seed: UInt64
    package var checks: [CheckResult]
    /// Why the run did not execute because an engine declares it lacks a capability the scenario
    /// needs (verdict `unsupported`). Infrastructure failures are `error` checks instead.
    package var notRun: String?
    /// The world trace fingerprint, when the run is deterministic.
    package var fingerprint: String?
    /// The order the seed gave each `parallel` block's actions, e.g. `alice,carol`; blocks separated by `|`.
    package var interleaving: String?
    /// The command that reproduces this run.
    package let reproduce: String
    /// The failure capsule written for a failing run.
    package var capsule: String?
    /// The clauses the scenario file cites (`clauses:`), for the certification report.
    package var clauses: [String]?
    /// The spec profile the run was judged by (`run --profile`).
    package var profile: MarmotProfile?

    package init(
        scenario: String, file: String, engine: String, seed: UInt64, checks: [CheckResult] = [],
        notRun: String? = nil, fingerprint: String? = nil, reproduce: String, capsule: String? = nil
    ) {
        self.scenario = scenario
        self.file = file
        self.engine = engine
        self.seed = seed
        self.checks = checks
        self.notRun = notRun
        self.fingerprint = fingerprint
        self.reproduce = reproduce
        self.capsule = capsule
    }

    /// The run's verdict: error if any check could not be judged (its other checks are then not
    /// trustworthy), else fail if any check fails; otherwise the most notable of the rest.
    package var verdict: Verdict {
        if checks.contains(where: { $0.verdict == .error }) { return .error }
        if notRun != nil { return .unsupported }
        for candidate in [Verdict.fail, .unexpectedPass, .knownDefect, .info] where checks.contains(where: { $0.verdict == candidate }) {
            return candidate
        }
        return .pass
    }
}

/// Counts of run verdicts, for the closing line.
package struct RunSummary: Hashable, Sendable, Codable {
    package var counts: [Verdict: Int]

    package init(_ runs: [ScenarioRun]) {
        counts = Dictionary(grouping: runs, by: \.verdict).mapValues(\.count)
    }

    package subscript(verdict: Verdict) -> Int { counts[verdict] ?? 0 }

    /// `N passed, N failed` first (the plain line CI systems read), then the other classes present.
    /// Errors count into "failed" there, so that a reader of that pair alone never takes a run
    /// whose infrastructure failed for a pass; `of which N errors` follows it.
    package var line: String {
        var parts = ["\(self[.pass] + self[.info] + self[.unexpectedPass]) passed", "\(self[.fail] + self[.error]) failed"]
        if self[.error] > 0 { parts[1] += " (of which \(self[.error]) error\(self[.error] == 1 ? "" : "s"))" }
        if self[.unsupported] > 0 { parts.append("\(self[.unsupported]) skipped") }
        if self[.knownDefect] > 0 { parts.append("\(self[.knownDefect]) known defects") }
        if self[.unexpectedPass] > 0 { parts.append("\(self[.unexpectedPass]) unexpected passes") }
        return parts.joined(separator: ", ")
    }
}
