import DeterministicScheduler
import Testing

@Suite struct EventQueueTests {
    @Test func popsByTimeThenInsertionOrder() {
        var queue = EventQueue<String>()
        queue.insert("late", at: VirtualInstant(microseconds: 30), label: "")
        queue.insert("tie-1", at: VirtualInstant(microseconds: 10), label: "")
        queue.insert("early", at: VirtualInstant(microseconds: 5), label: "")
        queue.insert("tie-2", at: VirtualInstant(microseconds: 10), label: "")
        queue.insert("tie-3", at: VirtualInstant(microseconds: 10), label: "")
        var order: [String] = []
        while let item = queue.popFirst() { order.append(item.payload) }
        #expect(order == ["early", "tie-1", "tie-2", "tie-3", "late"])
    }

    @Test func manyTiesKeepInsertionOrder() {
        var queue = EventQueue<Int>()
        var generator = SeededGenerator(seed: 3)
        var expected: [(UInt64, Int)] = []
        for value in 0..<500 {
            let time = UInt64.random(in: 0..<8, using: &generator)
            queue.insert(value, at: VirtualInstant(microseconds: time), label: "")
            expected.append((time, value))
        }
        expected.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var popped: [Int] = []
        while let item = queue.popFirst() { popped.append(item.payload) }
        #expect(popped == expected.map(\.1))
    }

    @Test func cancelledItemsNeverComeOut() {
        var queue = EventQueue<String>()
        let keep = queue.insert("keep", at: .zero, label: "")
        let drop = queue.insert("drop", at: .zero, label: "")
        let firstCancel = queue.cancel(drop)
        let secondCancel = queue.cancel(drop)
        #expect(firstCancel && !secondCancel)
        #expect(queue.count == 1)
        let first = queue.popFirst()
        let second = queue.popFirst()
        #expect(first?.id == keep)
        #expect(second == nil)
        let lateCancel = queue.cancel(keep)
        #expect(!lateCancel)
    }
}
