import EngineInterface

// Crash points (EngineInterface/CrashPoint.swift, docs/restart-matrix.md): where a scenario can make
// this member's app die. The core asks its switch at each point; once the member has died, every
// later point answers true as well, so the input being processed stops doing anything (what it did
// already is discarded by the world: no effect is carried out, no state persisted but what a
// write-ahead barrier made durable).
extension GroupCore {
    /// True when the member dies here or has died already: the caller returns at once. At a
    /// write-ahead barrier (`writeAhead`) the core's state as of now is what survives.
    func crashes(at point: CrashPoint, writeAhead: Bool = false) -> Bool {
        guard let crash = configuration.crashSwitch else { return false }
        let durable = writeAhead && configuration.behaviour.recovery.writesAhead
        return crash.reached(point, durable: durable ? (try? snapshot().encoded()) : nil)
    }
}
