// The bookkeeping of a depth-first search over choice sequences (docs/explore.md), kept apart from
// the runs themselves so that it is synchronous and testable on its own.
//
// Each run follows a prescribed prefix and then the defaults; it reports every choice point it met.
// Each point past the prefix is a branch point: every alternative there becomes a new prefix on the
// stack. A point whose state key was met before (in this run's past or any earlier run) is not
// branched on, and neither is anything after it in this run: the same state has the same futures,
// which the earlier visit already put on the stack.
import DeterministicScheduler

package struct ExploreFrontier: Sendable {
    /// Prefixes still to run; the last one runs next (depth first: the latest branch point's
    /// alternatives before earlier ones').
    private var stack: [[Int]] = [[]]
    /// State keys (mixed with the point's label and options) of every branch point expanded so far.
    private var visited: Set<UInt64> = []
    /// Runs recorded.
    package private(set) var schedules = 0
    /// Choice points met over all runs, and how many of them were pruned as already visited.
    package private(set) var choicePoints = 0
    package private(set) var pruned = 0
    /// The deepest choice sequence seen.
    package private(set) var deepest = 0

    package init() {}

    /// Whether every schedule has been run (or pruned as equivalent to one that ran).
    package var exhausted: Bool { stack.isEmpty }

    /// Prefixes waiting.
    package var waiting: Int { stack.count }

    /// The next prefix to run.
    package mutating func next() -> [Int]? { stack.popLast() }

    /// Records a run that followed `prefix` and met `points`, and pushes its unexplored branches.
    package mutating func record(_ points: [ChoicePoint], prefix: [Int]) {
        schedules += 1
        choicePoints += points.count
        deepest = max(deepest, points.count)
        var branches: [[Int]] = []
        for index in points.indices where index >= prefix.count {
            let point = points[index]
            guard visited.insert(Self.key(point)).inserted else {
                pruned += 1
                break
            }
            let taken = points[..<index].map(\.taken)
            for alternative in 1..<point.options { branches.append(taken + [alternative]) }
        }
        // Pushed shallow first, so the deepest branch point's alternatives run next.
        stack += branches
    }

    static func key(_ point: ChoicePoint) -> UInt64 {
        let label = FNV1a64.absorb("\(point.options) \(point.label)".utf8, into: FNV1a64.offsetBasis)
        return FNV1a64.absorb(withUnsafeBytes(of: point.stateKey.littleEndian, Array.init), into: label)
    }
}
