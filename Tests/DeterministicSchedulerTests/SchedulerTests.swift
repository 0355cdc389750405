import DeterministicScheduler
import Testing

@Suite struct SchedulerTests {
    /// A small randomized world: messages bounce between four nodes with seeded delays and drops.
    private func simulate(seed: UInt64, steps: Int = 300) -> Trace {
        var world = Scheduler<Int>(seed: seed)
        var network = world.generator.child("network")
        for node in 0..<4 { world.schedule(node, after: .milliseconds(UInt64(node)), label: "start \(node)") }
        var handled = 0
        while handled < steps, let item = world.runNext() {
            handled += 1
            let target = Int.random(in: 0..<4, using: &network)
            if Double.random(in: 0..<1, using: &network) < 0.1 {
                world.record("fault", "node-\(item.payload)", "drop to node-\(target)")
                continue
            }
            let delay = VirtualDuration(microseconds: UInt64.random(in: 0...2_000, using: &network))
            world.schedule(target, after: delay, label: "node-\(item.payload) -> node-\(target)")
            world.schedule(item.payload, after: delay, label: "node-\(item.payload) retry")
        }
        return world.trace
    }

    @Test func sameSeedGivesSameFingerprint() {
        let first = simulate(seed: 2026)
        let second = simulate(seed: 2026)
        #expect(first.count > 300)
        #expect(first.fingerprint == second.fingerprint)
        #expect(first.firstDivergence(from: second) == nil)
    }

    @Test func otherSeedGivesOtherFingerprintAndShowsWhere() throws {
        let first = simulate(seed: 1)
        let second = simulate(seed: 2)
        #expect(first.fingerprint != second.fingerprint)
        let divergence = try #require(first.firstDivergence(from: second))
        #expect(divergence.0 != divergence.1)
    }

    @Test func clockFollowsDeliveriesAndNeverGoesBack() {
        var world = Scheduler<String>(seed: 0, epochUnixSeconds: 1_000)
        world.schedule("b", at: VirtualInstant(microseconds: 2_500_000), label: "b")
        world.schedule("a", at: VirtualInstant(microseconds: 1_000_000), label: "a")
        let a = world.runNext()
        #expect(a?.payload == "a")
        #expect(world.clock.unixSeconds == 1_001)
        let b = world.runNext()
        #expect(b?.payload == "b")
        #expect(world.now == VirtualInstant(microseconds: 2_500_000))
        // Scheduling in the past runs "now", after what is already due.
        world.schedule("past", at: .zero, label: "past")
        let item = world.runNext()
        #expect(item?.payload == "past")
        #expect(item?.time == VirtualInstant(microseconds: 2_500_000))
        world.advance(to: .zero)
        #expect(world.now == VirtualInstant(microseconds: 2_500_000))
    }

    @Test func runNextUntilStopsAtTheDeadline() {
        var world = Scheduler<Int>(seed: 0)
        world.schedule(1, after: .seconds(5), label: "x")
        let early = world.runNext(until: VirtualInstant(microseconds: 1_000_000))
        #expect(early == nil)
        #expect(world.now.seconds == 1)
        let due = world.runNext(until: VirtualInstant(microseconds: 9_000_000))
        #expect(due?.payload == 1)
    }

    @Test func cancellationIsTracedAndChangesTheFingerprint() {
        var plain = Scheduler<Int>(seed: 5)
        var cancelling = Scheduler<Int>(seed: 5)
        plain.schedule(1, after: .zero, label: "x")
        let id = cancelling.schedule(1, after: .zero, label: "x")
        let cancelled = cancelling.cancel(id)
        let next = cancelling.runNext()
        #expect(cancelled)
        #expect(next == nil)
        #expect(cancelling.trace.entries.last?.category == "cancel")
        _ = plain.runNext()
        #expect(plain.trace.fingerprint != cancelling.trace.fingerprint)
    }

    @Test func durationsSaturateInsteadOfOverflowing() {
        #expect(VirtualDuration.seconds(.max).microseconds == .max)
        #expect(VirtualInstant(microseconds: .max - 1).advanced(by: .seconds(1)).microseconds == .max)
        #expect(VirtualInstant(microseconds: 12_000_250).description == "12.000250")
    }
}
