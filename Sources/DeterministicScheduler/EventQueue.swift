// A priority queue of scheduled work ordered by (time, sequence). The sequence number is the
// insertion order, so two items due at the same instant always come out in the order they were
// scheduled: this is what makes replays exact.

/// Identifies one scheduled item so that it can be cancelled.
package struct ScheduledID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Insertion order across the queue's lifetime.
    package let sequence: UInt64

    package static func < (lhs: ScheduledID, rhs: ScheduledID) -> Bool { lhs.sequence < rhs.sequence }
    package var description: String { "#\(sequence)" }
}

/// One item taken out of an `EventQueue`.
package struct Scheduled<Payload> {
    /// When the item is due.
    package let time: VirtualInstant
    /// Its identity and insertion order.
    package let id: ScheduledID
    /// Short human label recorded in the trace (e.g. `deliver relay-a -> alice`).
    package let label: String
    /// The work itself.
    package let payload: Payload
}

extension Scheduled: Sendable where Payload: Sendable {}

/// Due first, then scheduled first: the order that makes replays exact.
package enum DueOrder<Payload>: HeapOrder {
    package static func precedes(_ a: Scheduled<Payload>, _ b: Scheduled<Payload>) -> Bool {
        (a.time, a.id.sequence) < (b.time, b.id.sequence)
    }
}

/// A binary min-heap of `Scheduled` items keyed by (time, sequence).
package struct EventQueue<Payload> {
    private var heap = BinaryHeap<DueOrder<Payload>>()
    private var cancelled: Set<ScheduledID> = []
    private var nextSequence: UInt64 = 0

    /// An empty queue.
    package init() {}

    /// Number of items still pending (cancelled ones excluded).
    package var count: Int { heap.count - cancelled.count }

    /// Whether nothing is pending.
    package var isEmpty: Bool { count == 0 }

    /// Adds `payload`, due at `time`, and returns its id.
    @discardableResult
    package mutating func insert(_ payload: Payload, at time: VirtualInstant, label: String) -> ScheduledID {
        let id = ScheduledID(sequence: nextSequence)
        nextSequence &+= 1
        heap.insert(Scheduled(time: time, id: id, label: label, payload: payload))
        return id
    }

    /// Cancels a pending item; returns false if it already ran, was cancelled, or never existed.
    @discardableResult
    package mutating func cancel(_ id: ScheduledID) -> Bool {
        guard id.sequence < nextSequence, !cancelled.contains(id), heap.contains(where: { $0.id == id }) else {
            return false
        }
        cancelled.insert(id)
        return true
    }

    /// The due time of the earliest pending item.
    package mutating func peekTime() -> VirtualInstant? {
        dropCancelledTop()
        return heap.first?.time
    }

    /// Removes and returns the earliest pending item (ties by insertion order).
    package mutating func popFirst() -> Scheduled<Payload>? {
        dropCancelledTop()
        return heap.popFirst()
    }

    /// Removes and returns every pending item due at the earliest pending time, in (time, sequence)
    /// order: the simultaneously enabled items a schedule explorer chooses among. Give back the
    /// ones not run with `reinsert(_:)`.
    package mutating func popTies() -> [Scheduled<Payload>] {
        guard let first = popFirst() else { return [] }
        var ties = [first]
        while let time = peekTime(), time == first.time, let next = popFirst() { ties.append(next) }
        return ties
    }

    /// Puts back an item taken out by `popTies()`, keeping its id (and so its place in the order).
    package mutating func reinsert(_ item: Scheduled<Payload>) {
        heap.insert(item)
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, cancelled.contains(top.id) {
            cancelled.remove(top.id)
            _ = heap.popFirst()
        }
    }
}

extension EventQueue: Sendable where Payload: Sendable {}
