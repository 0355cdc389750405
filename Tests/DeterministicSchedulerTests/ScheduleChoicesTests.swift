import DeterministicScheduler
import Testing

/// The schedule-choice seam at the kernel: ties popped and chosen, prescriptions followed.
@Suite struct ScheduleChoicesTests {
    /// Three items due at the same instant and one later: the chooser sees the three in scheduling
    /// order, the one it picks runs, the others keep their places.
    @Test func chosenTieRunsAndTheOthersKeepTheirOrder() {
        var world = Scheduler<String>(seed: 1)
        for name in ["a", "b", "c"] { world.schedule(name, after: .milliseconds(5), label: name) }
        world.schedule("later", after: .milliseconds(6), label: "later")
        var seen: [String] = []
        let first = world.runNext { ties in
            seen = ties.map(\.payload)
            return 2
        }
        #expect(seen == ["a", "b", "c"])
        #expect(first?.payload == "c")
        var rest: [String] = []
        while let item = world.runNext() { rest.append(item.payload) }
        #expect(rest == ["a", "b", "later"])
    }

    /// No choice (nil, or out of range) is the default order: the same trace as `runNext()`.
    @Test func defaultChoiceIsTheSchedulingOrder() {
        func run(_ choosing: Bool) -> String {
            var world = Scheduler<String>(seed: 9)
            for name in ["x", "y", "z"] { world.schedule(name, after: .milliseconds(1), label: name) }
            while choosing ? world.runNext(choosingAmongTies: { _ in 7 }) != nil : world.runNext() != nil {}
            return world.trace.fingerprint
        }
        #expect(run(true) == run(false))
    }

    /// The prescription is followed point by point; beyond it, or out of range, the default;
    /// a single option is no choice point.
    @Test func prescriptionIsFollowedThenDefaults() {
        var choices = ScheduleChoices(prescribed: [1, 5, 2])
        #expect(choices.choose(among: 1, label: "only") == 0)
        #expect(choices.choose(among: 2, label: "p") == 1)
        #expect(choices.choose(among: 3, label: "q") == 0)  // 5 is out of range: default
        #expect(choices.choose(among: 3, label: "r") == 2)
        #expect(choices.choose(among: 4, label: "s") == 0)
        #expect(choices.points.map(\.options) == [2, 3, 3, 4])
        #expect(choices.takenSequence == [1, 0, 2])
    }

    /// State keys follow the inputs each component received (and nothing else): the same inputs
    /// in another interleaving of components give the same key; another order for one component does not.
    @Test func stateKeyFollowsPerComponentInputs() {
        func key(_ inputs: [(String, String)]) -> UInt64 {
            var choices = ScheduleChoices(prescribed: [])
            for (component, input) in inputs { choices.absorb(input: input, into: component, at: 5) }
            return choices.stateKey(extra: 0)
        }
        let a = key([("relay", "e1"), ("carol", "f1"), ("relay", "e2")])
        let b = key([("carol", "f1"), ("relay", "e1"), ("relay", "e2")])
        let c = key([("relay", "e2"), ("carol", "f1"), ("relay", "e1")])
        #expect(a == b)
        #expect(a != c)
    }
}
