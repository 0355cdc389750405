/// A strict order for a `BinaryHeap`: `precedes(a, b)` means `a` comes out first. A type, not a
/// closure, so that comparisons inline on the scheduler's and the relay's hot paths.
package protocol HeapOrder {
    associatedtype Element
    static func precedes(_ a: Element, _ b: Element) -> Bool
}

/// A binary heap whose first element is the one that precedes all others under `Order`.
package struct BinaryHeap<Order: HeapOrder> {
    package typealias Element = Order.Element
    private var storage: [Element] = []

    package init() {}

    package var count: Int { storage.count }
    package var isEmpty: Bool { storage.isEmpty }
    /// The element that comes out next.
    package var first: Element? { storage.first }

    package func contains(where predicate: (Element) throws -> Bool) rethrows -> Bool { try storage.contains(where: predicate) }

    /// Every element, in no particular order.
    package var unordered: [Element] { storage }

    package mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    package mutating func insert(_ element: Element) {
        storage.append(element)
        siftUp(storage.count - 1)
    }

    package mutating func popFirst() -> Element? {
        guard !storage.isEmpty else { return nil }
        storage.swapAt(0, storage.count - 1)
        let first = storage.removeLast()
        if !storage.isEmpty { siftDown(0) }
        return first
    }

    /// Replaces the first element (a bounded heap dropping its worst kept value).
    package mutating func replaceFirst(with element: Element) {
        guard !storage.isEmpty else { return insert(element) }
        storage[0] = element
        siftDown(0)
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool { Order.precedes(storage[a], storage[b]) }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { return }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < storage.count, precedes(left, best) { best = left }
            if right < storage.count, precedes(right, best) { best = right }
            if best == parent { return }
            storage.swapAt(parent, best)
            parent = best
        }
    }
}

extension BinaryHeap: Sendable where Element: Sendable {}
