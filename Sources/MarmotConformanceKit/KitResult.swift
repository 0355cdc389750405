// What a kit run reports: one result per scenario × seed, with every check.
import ErrorCodes
import ScenarioRunner

/// The verdict of a run or a check (docs/report-format.md, "Verdicts").
public enum KitVerdict: String, Sendable, Hashable, CaseIterable {
    case pass, fail, error, unsupported, info
    case knownDefect = "known-defect"
    case unexpectedPass = "unexpected-pass"

    /// Whether the verdict fails a conformance run (`fail`, `error`).
    public var failsTheRun: Bool { self == .fail || self == .error }

    init(_ verdict: Verdict) { self = Self(rawValue: verdict.rawValue) ?? .error }
}

/// One check of a run.
public struct KitCheck: Sendable, Hashable {
    public let name: String
    /// The clause it enforces, e.g. `MIP-03 Commit Message Race Conditions`.
    public let clause: String
    public let verdict: KitVerdict
    public let detail: String
}

/// One scenario run on the caller's engine with one seed.
public struct KitResult: Sendable, Hashable, CustomStringConvertible {
    public let scenario: String
    public let file: String
    public let seed: UInt64
    public let verdict: KitVerdict
    public let checks: [KitCheck]
    /// Why the run did not execute (`unsupported`: a capability the engine does not declare, or a
    /// member pinned to an engine the kit does not have).
    public let notRun: String?
    /// The world trace fingerprint, for a deterministic engine.
    public let fingerprint: String?
    /// A failure capsule written for a failing run.
    public let capsule: String?

    /// Nothing failed (known defects, unsupported and info do not fail).
    public var passed: Bool { !verdict.failsTheRun }

    public var description: String {
        let failing = checks.filter(\.verdict.failsTheRun).map { "\($0.name): \($0.detail)" }
        return "\(verdict.rawValue) \(file) [seed \(seed)] \(scenario)" + (notRun.map { " (\($0))" } ?? "")
            + failing.map { "\n  " + $0 }.joined()
    }

    init(_ run: ScenarioRun) {
        scenario = run.scenario
        file = run.file
        seed = run.seed
        verdict = KitVerdict(run.verdict)
        checks = run.checks.map {
            KitCheck(name: $0.check, clause: "\($0.clause.spec) \($0.clause.section)", verdict: KitVerdict($0.verdict), detail: $0.detail)
        }
        notRun = run.notRun
        fingerprint = run.fingerprint
        capsule = run.capsule
    }
}

/// The kit's error: a path, scenario file, ledger or option it cannot use.
public enum KitErrorDomain {}
public typealias KitError = ModuleError<KitErrorDomain>

extension KitError.Code {
    public static let badOption = Self("kit.badOption")
    public static let badPath = Self("kit.badPath")
    public static let badScenario = Self("kit.badScenario")
    public static let badLedger = Self("kit.badLedger")
}
