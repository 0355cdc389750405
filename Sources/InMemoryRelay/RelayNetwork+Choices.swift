// Where the network meets the schedule-choice seam (docs/explore.md). Without `choices` the next
// item is the scheduler's (time, sequence) order, exactly as before. With them, when several frames
// are due at the same instant for the same relay or the same member (they come over different
// links: one link's frames never share an instant, see `schedule(_:extraDelay:)`), which one arrives
// first is a choice point. Frames due at the same instant for different components are not: a
// relay and a member, or two members, handling their inputs in either order reach the same states
// (every effect of a delivery travels over a link with latency, so it cannot touch another
// delivery of the same instant). That is the static half of the partial-order reduction.
import DeterministicScheduler

extension RelayNetwork {
    /// The next item to handle, if due no later than `deadline` (nil: no deadline); when one is not
    /// due by then, the clock moves to the deadline and nil is returned, as `Scheduler.runNext(until:)`.
    mutating func nextItem(until deadline: VirtualInstant?) -> Scheduled<NetworkMessage>? {
        pumpExternal()
        guard choices != nil else {
            return deadline.map { scheduler.runNext(until: $0) } ?? scheduler.runNext()
        }
        if let deadline {
            guard let due = scheduler.nextDueTime(), due <= deadline else {
                scheduler.advance(to: deadline)
                return nil
            }
        }
        let extra = choiceStateExtra()
        // A local copy: the closure runs inside the scheduler's mutation, so it may not touch `self`.
        var log = choices
        let item = scheduler.runNext { ties in
            let first = Self.component(ties[0].payload)
            let rivals = ties.indices.filter { Self.component(ties[$0].payload) == first }
            guard rivals.count > 1, let first else { return nil }
            return rivals[log?.choose(among: rivals.count, label: "arrive \(first)", extra: extra) ?? 0]
        }
        choices = log
        if let item, case .transit(let transit) = item.payload, transit.toRelay {
            choices?.absorb(
                input: "\(transit.member) \(transit.effect.map { "\($0)" } ?? "") \(transit.frame)",
                into: "relay \(transit.relay)", at: item.time.microseconds)
        }
        return item
    }

    /// The component a scheduled item is handed to (nil for a reorder timeout, never a rival).
    static func component(_ message: NetworkMessage) -> String? {
        guard case .transit(let transit) = message else { return nil }
        return transit.toRelay ? "relay \(transit.relay)" : "member \(transit.member)"
    }

    /// The network's own state beyond its components' inputs, for state keys: the instant, the
    /// fault rules' match counters, held frames and frames waiting to be reordered.
    package func choiceStateExtra() -> UInt64 {
        var text = "\(scheduler.now.microseconds)"
        for id in rules.keys.sorted() { text += " r\(id):\(rules[id]?.matches ?? 0)" }
        for tag in held.keys.sorted() { text += " h\(tag):\(held[tag]?.count ?? 0)" }
        text += " o\(reorderSlots.count) p\(partitioned.keys.sorted())"
        return FNV1a64.hash(text.utf8)
    }
}
