import DeterministicScheduler
import GroupCore

/// What a replay of a run must reproduce exactly: both traces (through the fingerprint and the
/// member log) and every member's final state.
package struct RunRecord: Hashable, Sendable {
    package let fingerprint: String
    package let log: Trace
    package let states: [String: AppState]
}

extension World {
    /// The record of the run so far.
    package func runRecord() async -> RunRecord {
        var states: [String: AppState] = [:]
        for label in labels { states[label] = await members[label]?.core.state() }
        return RunRecord(fingerprint: fingerprint, log: log, states: states)
    }
}
