// The world kernel: a virtual clock, a (time, sequence)-ordered queue, one seeded generator and
// the trace. It is single-threaded and sans-I/O: the caller pops due work and carries it out, so
// a run is a pure function of the seed and the scheduled inputs.

/// A deterministic discrete-event scheduler over payloads of type `Payload`.
///
/// ```swift
/// var world = Scheduler<String>(seed: 42)
/// world.schedule("hello", after: .milliseconds(5), label: "greet")
/// while let item = world.runNext() { print(item.payload) }
/// print(world.trace.fingerprint)
/// ```
package struct Scheduler<Payload> {
    /// The virtual clock; moved only by `runNext()` and `advance(to:)`.
    package private(set) var clock: VirtualClock
    /// The root random stream; components should take `generator.child(label)`.
    package var generator: SeededGenerator
    /// Everything delivered, faulted or decided so far.
    package private(set) var trace: Trace
    private var queue = EventQueue<Payload>()

    /// A world at time zero whose Unix time is `epochUnixSeconds`, with all randomness from `seed`.
    package init(seed: UInt64, epochUnixSeconds: UInt64 = 1_700_000_000, keepsTraceEntries: Bool = true) {
        clock = VirtualClock(epochUnixSeconds: epochUnixSeconds)
        generator = SeededGenerator(seed: seed)
        trace = Trace(keepsEntries: keepsTraceEntries)
        trace.record(at: .zero, "world", "seed", "\(seed) epoch \(epochUnixSeconds)")
    }

    /// The current virtual instant.
    package var now: VirtualInstant { clock.now }

    /// Number of pending items.
    package var pendingCount: Int { queue.count }

    /// Schedules `payload` at `time`; a time in the past means "as soon as possible", after
    /// everything already due now.
    @discardableResult
    package mutating func schedule(_ payload: Payload, at time: VirtualInstant, label: String) -> ScheduledID {
        queue.insert(payload, at: max(time, clock.now), label: label)
    }

    /// Schedules `payload` `delay` after the current instant.
    @discardableResult
    package mutating func schedule(_ payload: Payload, after delay: VirtualDuration, label: String) -> ScheduledID {
        schedule(payload, at: clock.now.advanced(by: delay), label: label)
    }

    /// Cancels a pending item and records the cancellation.
    @discardableResult
    package mutating func cancel(_ id: ScheduledID) -> Bool {
        let done = queue.cancel(id)
        if done { record("cancel", "\(id)", "") }
        return done
    }

    /// When `runNext()` would run its item: the earliest pending item's time, never before now
    /// (nil when nothing is pending). Cancelled items are dropped on the way, nothing is recorded.
    package mutating func nextDueTime() -> VirtualInstant? {
        queue.peekTime().map { max($0, clock.now) }
    }

    /// Pops the earliest due item, moves the clock to its time and records the delivery.
    package mutating func runNext() -> Scheduled<Payload>? {
        guard let item = queue.popFirst() else { return nil }
        clock.advance(to: item.time)
        trace.record(at: clock.now, "deliver", item.label, "\(item.id)")
        return item
    }

    /// Like `runNext()`, but when several items are due at the earliest time, `choose` picks which
    /// runs (an index into them, in (time, sequence) order; nil or out of range: the first, as
    /// `runNext()` would). The others stay pending with their places. For schedule exploration.
    package mutating func runNext(choosingAmongTies choose: ([Scheduled<Payload>]) -> Int?) -> Scheduled<Payload>? {
        var ties = queue.popTies()
        guard !ties.isEmpty else { return nil }
        var index = 0
        if ties.count > 1, let chosen = choose(ties), ties.indices.contains(chosen) { index = chosen }
        let item = ties.remove(at: index)
        for other in ties { queue.reinsert(other) }
        clock.advance(to: item.time)
        trace.record(at: clock.now, "deliver", item.label, "\(item.id)")
        return item
    }

    /// Pops the earliest item only if it is due at or before `deadline`; otherwise moves the clock
    /// to `deadline` and returns nil.
    package mutating func runNext(until deadline: VirtualInstant) -> Scheduled<Payload>? {
        if let due = queue.peekTime(), due <= deadline { return runNext() }
        clock.advance(to: deadline)
        return nil
    }

    /// Moves the clock forward without running anything (a "wait" step).
    package mutating func advance(to instant: VirtualInstant) {
        clock.advance(to: instant)
    }

    /// Moves the clock forward by `duration` without running anything.
    package mutating func advance(by duration: VirtualDuration) {
        clock.advance(by: duration)
    }

    /// Appends a decision, fault or observation to the trace at the current instant.
    package mutating func record(_ category: String, _ subject: String, _ detail: String) {
        trace.record(at: clock.now, category, subject, detail)
    }
}

extension Scheduler: Sendable where Payload: Sendable {}
