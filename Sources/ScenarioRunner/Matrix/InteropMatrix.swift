// The interop matrix (issue 15): each scenario under assignments of engines to its members, after
// the MLS working group's interop harness, which runs every implementation in every role.
import ScenarioModel

/// Which assignments of engines to a scenario's free members (those without an `engine:` of their
/// own) a matrix run covers.
package enum InteropMatrix {
    /// How the columns were chosen.
    package enum Coverage: String, Sendable, Codable {
        /// Every assignment (engines^members of them).
        case all
        /// A pairwise-covering set: every two members see every pair of engines in some column.
        case pairwise
    }

    /// Every assignment is run when there are at most this many.
    package static let exhaustiveLimit = 16

    /// The assignments (one engine per free member, in declaration order) for `members` free members
    /// over `engines`, and how they were chosen. Deterministic: the same inputs give the same columns
    /// in the same order.
    package static func assignments<Engine>(members: Int, engines: [Engine]) -> (columns: [[Engine]], coverage: Coverage) {
        guard members > 0, !engines.isEmpty else { return ([[]], .all) }
        var total = 1
        for _ in 0..<members {
            total *= engines.count
            if total > exhaustiveLimit {
                return (pairwise(members: members, levels: engines.count).map { $0.map { engines[$0] } }, .pairwise)
            }
        }
        return (
            (0..<total).map { index in
                var rest = index
                var row = [Int](repeating: 0, count: members)
                for position in (0..<members).reversed() {
                    row[position] = rest % engines.count
                    rest /= engines.count
                }
                return row.map { engines[$0] }
            }, .all
        )
    }

    /// A pairwise-covering array, built greedily: each new row takes, member by member, the engine
    /// that covers the most pairs not yet covered with the members already set (ties: the lowest
    /// engine), its first member seeded from the first uncovered pair. Stops when every pair of
    /// members has seen every pair of engines.
    static func pairwise(members: Int, levels: Int) -> [[Int]] {
        // One member has no pairs: every engine once.
        guard members > 1 else { return (0..<levels).map { [$0] } }
        // uncovered[a][b] holds level pairs (x * levels + y) still missing for members a < b.
        var uncovered = (0..<members).map { a in (0..<members).map { b in b > a ? Set(0..<(levels * levels)) : [] } }
        var rows: [[Int]] = []
        func remaining() -> (Int, Int, Int)? {
            for a in 0..<members {
                for b in (a + 1)..<max(a + 1, members) where !uncovered[a][b].isEmpty {
                    return (a, b, uncovered[a][b].min()!)
                }
            }
            return nil
        }
        while let (firstA, firstB, pair) = remaining() {
            var row = [Int?](repeating: nil, count: members)
            row[firstA] = pair / levels
            row[firstB] = pair % levels
            for member in 0..<members where row[member] == nil {
                var best = 0
                var bestGain = -1
                for level in 0..<levels {
                    var gain = 0
                    for other in 0..<members {
                        guard let set = row[other] else { continue }
                        let (a, b, x, y) = other < member ? (other, member, set, level) : (member, other, level, set)
                        if uncovered[a][b].contains(x * levels + y) { gain += 1 }
                    }
                    if gain > bestGain { (best, bestGain) = (level, gain) }
                }
                row[member] = best
            }
            let full = row.map { $0 ?? 0 }
            for a in 0..<members { for b in (a + 1)..<max(a + 1, members) { uncovered[a][b].remove(full[a] * levels + full[b]) } }
            rows.append(full)
        }
        return rows
    }

    /// The free members of a scenario (no `engine:` of their own), in declaration order.
    package static func freeMembers(of scenario: Scenario) -> [String] {
        scenario.members.filter { $0.engine == nil }.map(\.label)
    }
}
