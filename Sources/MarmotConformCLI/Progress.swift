// What `run` prints while it runs: one line per finished run, flushed at once, then the details
// of what did not pass.
import Foundation
import ScenarioRunner

enum ProgressPrinter {
    /// `[3/12] PASS scenarios/x.yaml [swift, seed 1] name (0.42 s)` and, below, what did not pass.
    static func print(_ timed: TimedRun, index: Int, total: Int) {
        let run = timed.run
        let tag = run.verdict.rawValue.uppercased()
        let seconds = String(format: "%.2f", timed.seconds)
        var lines = [
            "[\(index)/\(total)] \(tag) \(run.file) [\(run.engine), seed \(run.seed)\(run.lane.map { ", lane \($0)" } ?? "")] \(run.scenario) (\(seconds) s)"
        ]
        if let notRun = run.notRun { lines.append("  \(notRun)") }
        for check in run.checks where check.verdict != .pass {
            lines.append("  \(check.verdict.rawValue): \(check.check) — \(check.clause)")
            if !check.detail.isEmpty { lines.append("    \(check.detail.replacingOccurrences(of: "\n", with: "\n    "))") }
            if let expected = check.expected, check.verdict.failsTheRun { lines.append("    expected: \(expected)") }
            if let observed = check.observed, check.verdict.failsTheRun { lines.append("    observed: \(observed)") }
        }
        if run.verdict.failsTheRun {
            if let capsule = run.capsule {
                lines.append("  capsule: \(capsule)")
                lines.append("  diagram: marmot-conform trace \(capsule) --html trace.html")
            }
            lines.append("  reproduce: \(run.reproduce)")
        }
        Console.line(lines.joined(separator: "\n"))
    }

    /// Per scenario: distinct interleavings of its parallel blocks seen across seeds (and distinct
    /// trace fingerprints where the engines are deterministic), then overall throughput.
    static func interleavings(_ runs: [ScenarioRun], seconds: Double) {
        for (file, group) in Dictionary(grouping: runs, by: \.file).sorted(by: { $0.key < $1.key }) {
            let orders = Set(group.compactMap(\.interleaving))
            let traces = Set(group.compactMap(\.fingerprint))
            var line = "\(file): \(group.count) runs, \(orders.count) distinct interleavings"
            if !traces.isEmpty { line += ", \(traces.count) distinct traces" }
            Console.line(line)
        }
        Console.line(
            String(format: "throughput: %.2f runs/s (%d runs in %.1f s)", Double(runs.count) / max(seconds, 0.001), runs.count, seconds))
    }
}

enum Reports {
    /// `context`: what the runs were judged with (profile, engine versions, ledger) and, for
    /// `run --shard K/N`, which part of a run they are (for `merge-reports`).
    static func write(_ runs: [TimedRun], junit: URL?, json: URL?, context: JSONReport.Context = JSONReport.Context()) throws {
        if let junit { try Data(JUnitReport.xml(runs).utf8).write(to: junit, options: .atomic) }
        if let json {
            try Data(JSONReport.json(runs, toolVersion: ToolVersion.current, context: context).utf8).write(to: json, options: .atomic)
        }
    }
}

/// The runs of one `run` invocation as they finish: timed, printed with `[i/N]`.
final class RunProgress {
    let total: Int
    let stopwatch = Stopwatch()
    private(set) var timed: [TimedRun] = []

    init(total: Int) { self.total = total }

    func record(_ run: ScenarioRun) {
        record(timed: TimedRun(run, seconds: stopwatch.lap()))
    }

    /// A run timed elsewhere (one unit of a shard), printed now.
    func record(timed run: TimedRun) {
        timed.append(run)
        ProgressPrinter.print(run, index: timed.count, total: total)
    }

    /// A run already printed (by the `--jobs` pool, in order).
    func add(_ run: TimedRun) { timed.append(run) }
}

/// Wall-clock laps, for run durations (the CLI is where the wall clock may be read).
final class Stopwatch {
    private let start = ContinuousClock.now
    private var last = ContinuousClock.now

    /// Seconds since the previous lap (or the start).
    func lap() -> Double {
        let now = ContinuousClock.now
        defer { last = now }
        return Self.seconds(now - last)
    }

    var total: Double { Self.seconds(ContinuousClock.now - start) }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
