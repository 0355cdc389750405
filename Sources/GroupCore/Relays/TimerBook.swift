/// The core's running timers: what each is for, and how long it was set for (a restarted core
/// starts each again for its whole duration, Persistence/GroupCore+Restart.swift).
struct TimerBook: Sendable {
    var running: [TimerToken: TimerPurpose] = [:]
    /// Durations of timers started; entries of fired or stopped timers are pruned now and then.
    var durations: [TimerToken: UInt64] = [:]

    /// Forgets the durations of timers no longer running once they outnumber the running ones by
    /// 64 (pruning after every input would cost a pass over the map each time).
    mutating func pruneDurations() {
        if durations.count > running.count + 64 { durations = durations.filter { running[$0.key] != nil } }
    }
}
