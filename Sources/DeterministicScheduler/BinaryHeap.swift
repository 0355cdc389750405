/// A strict order for a `BinaryHeap`: `precedes(a, b)` means `a` comes out first. A type, not a
/// closure, so that comparisons inline on the scheduler's and the relay's hot paths.
public protocol HeapOrder {
    associatedtype Element
    static func precedes(_ a: Element, _ b: Element) -> Bool
}

/// A binary heap whose first element is the one that precedes all others under `Order`.
public struct BinaryHeap<Order: HeapOrder> {
    public typealias Element = Order.Element
    private var storage: [Element] = []

    public init() {}

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
    /// The element that comes out next.
    public var first: Element? { storage.first }

    public func contains(where predicate: (Element) throws -> Bool) rethrows -> Bool { try storage.contains(where: predicate) }

    /// Every element, in no particular order.
    public var unordered: [Element] { storage }

    public mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    public mutating func insert(_ element: Element) {
        storage.append(element)
        siftUp(storage.count - 1)
    }

    public mutating func popFirst() -> Element? {
        guard !storage.isEmpty else { return nil }
        storage.swapAt(0, storage.count - 1)
        let first = storage.removeLast()
        if !storage.isEmpty { siftDown(0) }
        return first
    }

    /// Replaces the first element (a bounded heap dropping its worst kept value).
    public mutating func replaceFirst(with element: Element) {
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
