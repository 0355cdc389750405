// Which engine each member runs. The runner never names a concrete engine: the caller (the CLI,
// a test) hands it factories by name.
import EngineInterface
import ScenarioModel
import Simulation

/// The engines a run may use, by name (`swift`, `mdk`, …).
package struct EngineSet: Sendable {
    /// Makes a member's engine from its context: label, storage key, seeded stream and the world clock.
    package typealias Factory = ContextualEngineFactory

    package struct Entry: Sendable {
        package let factory: Factory
        /// Whether runs with only this engine replay byte for byte (our own engine, and MDK through its
        /// driver on the world's clock and seed: yes), so that they get fingerprints.
        package let deterministic: Bool
        package init(factory: @escaping Factory, deterministic: Bool) {
            self.factory = factory
            self.deterministic = deterministic
        }
    }

    package var entries: [String: Entry]
    package init(_ entries: [String: Entry]) { self.entries = entries }

    /// The engine each member runs, by the name its entry is registered under.
    package enum MemberEngine: Hashable, Sendable {
        case engine(String)
        /// A member beyond an assignment's list: no engine, so the run is not run.
        case unassigned(assignmentLength: Int)

        /// The registered name, or nil for an unassigned member.
        package var name: String? {
            if case .engine(let name) = self { name } else { nil }
        }

        /// How a run that cannot start names it.
        package var description: String {
            switch self {
            case .engine(let name): name
            case .unassigned(let count): "(none: the assignment names \(count) members)"
            }
        }
    }

    /// The engine of each member: its own `engine:` field, else the run's selection; `mixed`
    /// alternates the available engines over the members in declaration order (the built-in ones
    /// first, in `EngineName`'s order, then the others by name); an assignment (`matrix:…`) names
    /// one engine per member without its own, in order (a member beyond the list gets none, so the
    /// run is not run).
    package func assignment(for scenario: Scenario, selection: EngineSelection) -> [String: MemberEngine] {
        let available = entries.keys.sorted()
        var free = 0
        var out: [String: MemberEngine] = [:]
        for (index, member) in scenario.members.enumerated() {
            if let fixed = member.engine {
                out[member.label] = .engine(fixed.rawValue)
                continue
            }
            switch selection.kind {
            case .assignment(let assigned):
                out[member.label] = free < assigned.count ? .engine(assigned[free].rawValue) : .unassigned(assignmentLength: assigned.count)
                free += 1
            case .mixed where !available.isEmpty:
                // Alternate so that every engine both creates and joins groups across scenarios.
                let builtIn = EngineSelection.mixed.engines.map(\.rawValue)
                let order = builtIn.filter(available.contains) + available.filter { !builtIn.contains($0) }
                out[member.label] = .engine(order[index % order.count])
            default:
                out[member.label] = .engine(selection.rawValue)
            }
        }
        return out
    }
}
