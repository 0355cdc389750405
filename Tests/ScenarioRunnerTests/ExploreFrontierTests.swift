import DeterministicScheduler
import Testing

@testable import ScenarioRunner

/// The explorer's search without any world: a choice tree given as a function of the prefix.
@Suite struct ExploreFrontierTests {
    /// A run of the tree "2 options, then 3": the points it meets when following `prefix`;
    /// `sharedSecondState` gives the second point the same state key whatever the first choice.
    static func points(_ prefix: [Int], sharedSecondState: Bool) -> [ChoicePoint] {
        let first = prefix.first ?? 0
        let second = prefix.count > 1 ? prefix[1] : 0
        return [
            ChoicePoint(options: 2, taken: first, label: "parallel", stateKey: 1),
            ChoicePoint(options: 3, taken: second, label: "arrive relay", stateKey: sharedSecondState ? 2 : UInt64(10 + first)),
        ]
    }

    static func explore(sharedSecondState: Bool) -> (ExploreFrontier, Set<[Int]>) {
        var frontier = ExploreFrontier()
        var runs: Set<[Int]> = []
        while let prefix = frontier.next() {
            let points = points(prefix, sharedSecondState: sharedSecondState)
            runs.insert(points.map(\.taken))
            frontier.record(points, prefix: prefix)
        }
        return (frontier, runs)
    }

    /// Every leaf of the tree is run once, and then the space is exhausted.
    @Test func enumeratesEveryScheduleOnce() {
        let (frontier, runs) = Self.explore(sharedSecondState: false)
        #expect(frontier.schedules == 6)
        #expect(runs.count == 6)
        #expect(frontier.exhausted)
        #expect(frontier.pruned == 0)
        #expect(frontier.deepest == 2)
    }

    /// When both first choices lead to the same state, the second subtree is not run again.
    @Test func prunesStatesAlreadyExplored() {
        let (frontier, runs) = Self.explore(sharedSecondState: true)
        #expect(frontier.schedules == 4)
        #expect(runs == [[0, 0], [0, 1], [0, 2], [1, 0]])
        #expect(frontier.pruned == 1)
        #expect(frontier.exhausted)
    }

    /// Shrinking tries all defaults first, then one choice fewer at a time, then smaller ones.
    @Test func shrinkCandidatesGetSmaller() {
        #expect(Explorer.shrinkCandidates([0, 2, 0, 1]) == [[], [0, 2], [0, 0, 0, 1], [0, 1, 0, 1]])
        #expect(Explorer.shrinkCandidates([]) == [])
    }
}
