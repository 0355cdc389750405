// The parent side of `run --jobs N`: hands units to workers as they free up (so a slow scenario
// does not hold back a whole static share), collects their run records, and prints and reports them
// in the plan's order, so that the console, JUnit, JSON and capsules are those of `--jobs 1`
// (timings apart). A unit whose worker dies or answers garbage is an `error` run, never a pass or
// a skip; a unit no worker could take (none started) is one too.
import Foundation
import ScenarioRunner

/// What the pool needs to name a unit it has to judge itself (its worker died).
struct UnitIdentity: Sendable {
    let scenario: String
    let file: String
    let engine: String
    let seed: UInt64
    let reproduce: String
}

actor WorkerPool {
    static let clause = Clause("marmot-conform", "parallel runs")

    let total: Int
    private let identities: [UnitIdentity]
    private let banner: @Sendable ([String: String]) -> String
    /// The order units are handed out: biggest estimated first, so that a long scenario does not
    /// start last and leave the other workers idle at the end (reports keep the plan's order).
    private let dispatch: [Int]
    private var nextUnit = 0
    private var started: [Int: ContinuousClock.Instant] = [:]
    private var results: [TimedRun?]
    private var printed = 0
    /// Runs finished (printed or held back for their turn) and how many of them failed.
    private var finished = 0
    private var failedSoFar = 0
    /// When the last held-back status line went out (see `flush`).
    private var lastStatus = ContinuousClock.now
    private var bannerShown = false
    /// The first ready worker's engine versions (the JSON report records them, as `--jobs 1` does).
    private(set) var versions: [String: String] = [:]
    private var startFailures: [String] = []

    init(identities: [UnitIdentity], costs: [Int], banner: @escaping @Sendable ([String: String]) -> String) {
        self.identities = identities
        dispatch = identities.indices.sorted { (costs[$0], $1) > (costs[$1], $0) }
        self.banner = banner
        total = identities.count
        results = Array(repeating: nil, count: identities.count)
    }

    /// The next unit to run, or nil when every unit has been handed out.
    func take() -> Int? {
        guard nextUnit < total else { return nil }
        let unit = dispatch[nextUnit]
        nextUnit += 1
        started[unit] = .now
        return unit
    }

    /// A worker is up; the first one's engine versions make the banner (as `--jobs 1` prints it).
    func ready(_ versions: [String: String]) {
        guard !bannerShown else { return }
        bannerShown = true
        self.versions = versions
        Console.line(banner(versions))
    }

    var anyReady: Bool { bannerShown }
    var whyNoneStarted: String { startFailures.joined(separator: "; ") }

    func startFailed(_ status: String) { startFailures.append(status) }

    func finish(_ unit: Int, _ timed: TimedRun) {
        results[unit] = timed
        count(timed)
        flush()
    }

    private func count(_ timed: TimedRun) {
        finished += 1
        if timed.run.verdict.failsTheRun { failedSoFar += 1 }
    }

    /// The unit's worker ended (or broke the protocol) before reporting it.
    func fail(_ unit: Int, _ reason: String) {
        let seconds = started[unit].map { Stopwatch.seconds(ContinuousClock.now - $0) } ?? 0
        let timed = TimedRun(errorRun(unit, reason), seconds: seconds)
        results[unit] = timed
        count(timed)
        flush()
    }

    /// After every worker has ended: units nobody ran are errors too. The runs in the plan's order.
    func finalize() -> [TimedRun] {
        for unit in 0..<total where results[unit] == nil {
            results[unit] = TimedRun(errorRun(unit, "no worker was left to run it (\(whyNoneStarted))"), seconds: 0)
        }
        flush()
        return results.compactMap { $0 }
    }

    func errorRun(_ unit: Int, _ reason: String) -> ScenarioRun {
        let id = identities[unit]
        let check = CheckResult(
            check: "worker process answered", clause: Self.clause, verdict: .error,
            expected: "the worker reports the run", observed: "no report", detail: reason)
        return ScenarioRun(scenario: id.scenario, file: id.file, engine: id.engine, seed: id.seed, checks: [check], reproduce: id.reproduce)
    }

    /// Prints every run whose predecessors have all been printed. The biggest units go first, so
    /// the first run of the plan may finish late and hold every line back: while runs wait for
    /// their turn, a status line on stderr says how far the run is, at most every 15 s.
    private func flush() {
        while printed < total, let timed = results[printed] {
            printed += 1
            ProgressPrinter.print(timed, index: printed, total: total)
        }
        let now = ContinuousClock.now
        if finished > printed, now - lastStatus >= .seconds(15) {
            lastStatus = now
            Console.error("  … \(finished) of \(total) runs finished (\(failedSoFar) failed so far); lines follow in the plan's order")
        }
    }
}
