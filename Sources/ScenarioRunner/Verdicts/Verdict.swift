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
    /// A note on a check: behaviour the spec leaves open, or something the run could not compare
    /// (no stored fingerprint). Reported, never failing; a run whose checks are all `pass` or
    /// `info` is a `pass` (a note never changes a run's verdict).
    case info
    /// A failure recorded in the known-defects ledger; does not fail CI.
    case knownDefect = "known-defect"
    /// A check listed in the ledger passed: the entry is stale and must be removed. It fails the
    /// gate (`failsTheGate`) unless the run allows it (`--allow-unexpected-pass`, for local work),
    /// so the ledger stays exact.
    case unexpectedPass = "unexpected-pass"

    /// Whether this verdict is a failure of the engine or of the infrastructure.
    package var failsTheRun: Bool { self == .fail || self == .error }

    /// Whether this verdict makes the command exit 1: a failure, an error, or a stale ledger entry
    /// (unless allowed).
    package func failsTheGate(allowingUnexpectedPass: Bool = false) -> Bool {
        failsTheRun || (self == .unexpectedPass && !allowingUnexpectedPass)
    }
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
    /// For a check the run's profile does not hold (reported `info`, not judged): whether the
    /// engine behaved as the check expects anyway. The certification report characterizes such
    /// behaviour YES/NO beside the MUST checks' PASS/FAIL; nil for every judged check and for notes.
    package var characterized: Bool?

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
    /// The network lane when it is not the in-memory world: `real` (`run --network real`), whose
    /// runs are judged by end state and oracles, not fingerprints or stored vectors.
    package var lane: String?

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
    /// trustworthy), else fail if any check fails; otherwise the most notable of the rest. Notes
    /// (`info` checks) never make a run anything but a pass.
    package var verdict: Verdict {
        if checks.contains(where: { $0.verdict == .error }) { return .error }
        if notRun != nil { return .unsupported }
        for candidate in [Verdict.fail, .unexpectedPass, .knownDefect] where checks.contains(where: { $0.verdict == candidate }) {
            return candidate
        }
        return .pass
    }

    /// Whether a passing run carries notes (`info` checks).
    package var hasNotes: Bool { checks.contains { $0.verdict == .info } }
}

/// Counts of run verdicts, for the closing line.
package struct RunSummary: Hashable, Sendable, Codable {
    package var counts: [Verdict: Int]
    /// Passing runs that carry notes (a subset of the passes).
    package var passesWithNotes: Int

    package init(_ runs: [ScenarioRun]) {
        counts = Dictionary(grouping: runs, by: \.verdict).mapValues(\.count)
        passesWithNotes = runs.filter { $0.verdict == .pass && $0.hasNotes }.count
    }

    package subscript(verdict: Verdict) -> Int { counts[verdict] ?? 0 }

    /// `N passed, N failed` first (the plain line CI systems read), then the other classes present.
    /// Everything that makes the command exit 1 counts into "failed" there (errors, and stale
    /// ledger entries unless allowed), so that a reader of that pair alone never takes a failing
    /// run for a pass; `of which …` says what they were.
    package func line(allowingUnexpectedPass: Bool = false) -> String {
        let stale = self[.unexpectedPass]
        let failing = self[.fail] + self[.error] + (allowingUnexpectedPass ? 0 : stale)
        var parts = ["\(self[.pass] + (allowingUnexpectedPass ? stale : 0)) passed", "\(failing) failed"]
        var of: [String] = []
        if self[.error] > 0 { of.append("\(self[.error]) error\(self[.error] == 1 ? "" : "s")") }
        if stale > 0, !allowingUnexpectedPass {
            of.append("\(stale) unexpected pass\(stale == 1 ? "" : "es"): stale ledger entr\(stale == 1 ? "y" : "ies") to remove")
        }
        if !of.isEmpty { parts[1] += " (of which \(of.joined(separator: "; ")))" }
        if self[.unsupported] > 0 { parts.append("\(self[.unsupported]) skipped") }
        if self[.knownDefect] > 0 { parts.append("\(self[.knownDefect]) known defects") }
        if stale > 0, allowingUnexpectedPass { parts.append("\(stale) unexpected pass\(stale == 1 ? "" : "es") (allowed)") }
        return parts.joined(separator: ", ")
    }

    /// The line with every default.
    package var line: String { line() }
}
