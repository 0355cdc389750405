// Engine reads on a path that feeds a verdict. A read that fails is never taken for an empty
// answer: it is kept with its reason, and the check it fed becomes an `error`.
import EngineInterface

struct EngineReads: Sendable {
    private(set) var failures: [String] = []

    /// The value `body` reads, or nil when it threw (the failure is kept).
    mutating func value<T>(_ what: @autoclosure () -> String, _ body: () async throws(EngineError) -> T) async -> T? {
        do { return try await body() } catch {
            failures.append("\(what()): \(error)")
            return nil
        }
    }

    mutating func absorb(_ other: EngineReads) { failures += other.failures }

    var failed: Bool { !failures.isEmpty }

    /// `check` when every read succeeded; else the same check as an `error` naming the failed reads
    /// (what it would have said is kept in `observed` for the curious, but it decides nothing).
    func judged(_ check: CheckResult) -> CheckResult {
        guard failed else { return check }
        return CheckResult(
            check: check.check, clause: check.clause, verdict: .error, expected: check.expected, observed: check.observed,
            detail: "could not read engine state: " + failures.joined(separator: "; "))
    }

    /// An `error` check for reads that fed no check of their own (e.g. the recorded outcome).
    func errorCheck(_ name: String, clause: Clause) -> CheckResult? {
        guard failed else { return nil }
        return CheckResult(check: name, clause: clause, verdict: .error, detail: "could not read engine state: " + failures.joined(separator: "; "))
    }
}
