import DeterministicScheduler

/// The best `capacity` stored events in NIP-01 result order, kept while scanning: the heap's first
/// element is the worst one kept, which a better candidate replaces. Each offer costs
/// O(log capacity), so a query with a small `limit` over a large store never sorts every match.
struct BestResults {
    /// Worst result first.
    enum WorstFirst: HeapOrder {
        static func precedes(_ a: StoredEvent, _ b: StoredEvent) -> Bool { b.precedesInResults(a) }
    }

    let capacity: Int
    private var heap = BinaryHeap<WorstFirst>()

    init(capacity: Int) {
        self.capacity = capacity
        heap.reserveCapacity(min(capacity, 1_024))
    }

    mutating func offer(_ event: StoredEvent) {
        guard capacity > 0 else { return }
        if heap.count < capacity {
            heap.insert(event)
        } else if let worst = heap.first, event.precedesInResults(worst) {
            heap.replaceFirst(with: event)
        }
    }

    /// The kept events, best first.
    func sorted() -> [StoredEvent] { heap.unordered.sorted { $0.precedesInResults($1) } }
}
