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

    /// The prefix of an explicit assignment (an interop-matrix cell): `matrix:swift,mdk,mdk` gives
    /// the members without an engine of their own these engines, in declaration order.
    package static let assignmentPrefix = "matrix:"

    /// The engines of an explicit assignment selection, or nil for any other selection.
    package static func assignedEngines(_ selection: String) -> [String]? {
        guard selection.hasPrefix(assignmentPrefix) else { return nil }
        return selection.dropFirst(assignmentPrefix.count).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// The engine of each member: its own `engine:` field, else the run's selection; `mixed`
    /// alternates the available engines over the members in declaration order; an assignment
    /// (`matrix:…`) names one engine per member without its own, in order (a member beyond the
    /// list gets none, so the run is not run).
    package func assignment(for scenario: Scenario, selection: String) -> [String: String] {
        let available = entries.keys.sorted()
        let assigned = Self.assignedEngines(selection)
        var free = 0
        var out: [String: String] = [:]
        for (index, member) in scenario.members.enumerated() {
            if let fixed = member.engine {
                out[member.label] = fixed
            } else if let assigned {
                out[member.label] = free < assigned.count ? assigned[free] : "(none: the assignment names \(assigned.count) members)"
                free += 1
            } else if selection == "mixed", !available.isEmpty {
                // Alternate so that every engine both creates and joins groups across scenarios.
                let order = ["swift", "mdk"].filter(available.contains) + available.filter { $0 != "swift" && $0 != "mdk" }
                out[member.label] = order[index % order.count]
            } else {
                out[member.label] = selection
            }
        }
        return out
    }
}
