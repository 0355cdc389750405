// The unit of parallel and sharded runs: one scenario with one seed. `run` lists its units in the
// order a plain run executes them (scenario files in collection order, then seeds ascending), and
// that order is what every report of a parallel or sharded run is merged back into
// (docs/parallel-runs.md).
import ArgumentParser
import ScenarioModel

/// One scenario × one seed, by its position in the plan's scenario list.
struct RunUnit: Hashable, Sendable {
    let scenario: Int
    let seed: UInt64
}

enum RunUnits {
    /// Every unit of `scenarios` × `seeds`, scenario-major, as `ConformanceRunner.run` goes through them.
    static func all(scenarioCount: Int, seeds: [UInt64]) -> [RunUnit] {
        (0..<scenarioCount).flatMap { scenario in seeds.map { RunUnit(scenario: scenario, seed: $0) } }
    }
}

/// `--shard K/N`: the K-th of N parts of a run (1 ≤ K ≤ N ≤ 1000). Unit i of the whole run belongs to
/// shard (i mod N) + 1: a deal, so that neighbouring units (often the slow seeds of one scenario)
/// are spread over the machines, and the merge can put every run back at its place from the shard
/// index alone.
struct ShardSpec: ExpressibleByArgument, Hashable, Sendable, Codable {
    static let maximumCount = 1000

    /// 1-based.
    let index: Int
    let count: Int

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            count >= 1, count <= Self.maximumCount, index >= 1, index <= count
        else { return nil }
        self.init(index: index, count: count)
    }

    var defaultValueDescription: String { "\(index)/\(count)" }

    /// Whether unit `position` (0-based, in the whole run's order) is this shard's.
    func owns(_ position: Int) -> Bool { position % count == index - 1 }

    /// How many of `total` units this shard runs.
    func share(of total: Int) -> Int { total / count + (total % count > index - 1 ? 1 : 0) }

    /// This shard's units of `units`, in order.
    func select<T>(_ units: [T]) -> [T] {
        units.enumerated().filter { owns($0.offset) }.map(\.element)
    }
}

/// `--jobs N`: worker processes on this machine (1 runs in process, as before), at most 64.
struct JobCount: ExpressibleByArgument, Hashable, Sendable {
    static let maximum = 64
    let value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        guard let value = Int(argument), value >= 1, value <= Self.maximum else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { "\(value)" }
}
