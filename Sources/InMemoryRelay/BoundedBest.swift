/// The best `capacity` of a stream of values under a strict order, kept in a binary heap whose top
/// is the worst value kept: each offer costs O(log capacity), so a query with a small `limit` over
/// a large store never sorts every match.
struct BoundedBest<Element> {
    let capacity: Int
    /// `precedes(a, b)`: `a` is better than `b` (comes first in the results).
    let precedes: (Element, Element) -> Bool
    private var heap: [Element] = []

    init(capacity: Int, precedes: @escaping (Element, Element) -> Bool) {
        self.capacity = capacity
        self.precedes = precedes
        heap.reserveCapacity(min(capacity, 1_024))
    }

    mutating func offer(_ element: Element) {
        guard capacity > 0 else { return }
        if heap.count < capacity {
            heap.append(element)
            siftUp(heap.count - 1)
        } else if precedes(element, heap[0]) {
            heap[0] = element
            siftDown(0)
        }
    }

    /// The kept values, best first.
    func sorted() -> [Element] { heap.sorted(by: precedes) }

    /// Heap order: a parent is worse than (does not precede) its children.
    private func worse(_ a: Int, _ b: Int) -> Bool { precedes(heap[b], heap[a]) }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard worse(child, parent) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var worst = left
            if left + 1 < heap.count, worse(left + 1, left) { worst = left + 1 }
            guard worse(worst, parent) else { return }
            heap.swapAt(worst, parent)
            parent = worst
        }
    }
}
