// A finished run with the wall-clock time it took. The runner reads no clock (its runs are
// functions of the seed); the CLI measures each run and hands the figure to the reports. A
// duration is never part of a fingerprint, a vector or a verdict.

package struct TimedRun: Hashable, Sendable {
    package let run: ScenarioRun
    /// Wall-clock seconds from the run's start to its verdict (vector and ledger checks included).
    package let seconds: Double

    package init(_ run: ScenarioRun, seconds: Double) {
        self.run = run
        self.seconds = seconds
    }
}

extension TimedRun: Codable {
    enum Keys: String, CodingKey { case seconds }

    /// The run's own fields with `seconds` beside them, so a report's run object stays flat.
    package func encode(to encoder: any Encoder) throws {
        try run.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(seconds, forKey: .seconds)
    }

    package init(from decoder: any Decoder) throws {
        run = try ScenarioRun(from: decoder)
        seconds = try decoder.container(keyedBy: Keys.self).decode(Double.self, forKey: .seconds)
    }
}
