import DeterministicScheduler
import GroupCore

/// What a replay of a run must reproduce exactly: both traces (through the fingerprint and the
/// member log) and every member's final state.
public struct RunRecord: Hashable, Sendable {
    public let fingerprint: String
    public let log: Trace
    public let states: [String: AppState]
}

extension World {
    /// The record of the run so far.
    public func runRecord() async -> RunRecord {
        var states: [String: AppState] = [:]
        for label in labels { states[label] = await members[label]?.core.state() }
        return RunRecord(fingerprint: fingerprint, log: log, states: states)
    }
}
