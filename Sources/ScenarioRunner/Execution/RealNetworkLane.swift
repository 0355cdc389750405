// The real-network lane (`run --network real`, docs/real-network.md): the same scenarios, with every
// relay a real process and every member's relay connection a real WebSocket. The runner knows no
// socket or process: a launcher given by the front door starts a run's relays and hands back the
// links the world's network writes to (InMemoryRelay's `ExternalRelayLinks`).
import InMemoryRelay
import ScenarioModel
import Simulation

/// One relay a real run needs: its scenario name and the policies it must enforce.
package struct RealRelaySpec: Sendable, Hashable {
    package let name: String
    package let policies: [RelayPolicyName]
    /// `max-results`: stored events served for a filter without `limit`; nil: all.
    package var maximumResults: Int?
    package init(name: String, policies: [RelayPolicyName], maximumResults: Int? = nil) {
        self.name = name
        self.policies = policies
        self.maximumResults = maximumResults
    }
}

/// Starts real relays for one run at a time (the CLI's: relay processes behind the fault proxy).
package protocol RealNetworkLauncher: Sendable {
    /// Why this launcher cannot give a relay what the scenario asks of it (a policy its relay kind
    /// lacks), or nil.
    func unsupported(_ relays: [RealRelaySpec]) -> String?
    /// Whether its relays take the lane's orders (`LaneOrder`: `reject`, `withhold-ok`).
    var takesOrders: Bool { get }
    /// The command-line words that choose this lane, for a run's reproduce command
    /// (`--network real`, and the relay kind and proxy fault when not the defaults).
    var commandArguments: String { get }
    /// Starts one relay per spec (bounded waits); throws when one does not start (infrastructure).
    func start(_ relays: [RealRelaySpec]) async throws -> any RealNetworkRun
}

/// The relays of one real run, stopped when the run ends (on every path).
package protocol RealNetworkRun: Sendable {
    var links: any ExternalRelayLinks { get }
    /// What the lane did, one line (connections, frames, bytes, proxy faults), for the run's notes.
    func summary() -> String
    /// Stops the relays and reaps their processes; what went wrong doing so (empty when nothing).
    func stop() async -> [String]
}

package enum RealNetworkLane {
    /// The run line's and the report's name of the lane.
    package static let name = "real"
    static let clause = Clause("marmot-conform", "real network")

    /// Fault kinds that need the relay's own help: an answer it would not give (`reject`,
    /// `withhold-ok`: relays that take the lane's orders do these), or a hostile relay's conduct
    /// (`eclipse`, `stale`: no relay process of the lane has it). A scenario using one a launcher's
    /// relays cannot do is unsupported.
    static let orderedFaults: Set<FaultKind> = [.reject, .withholdOK]
    static let hostileRelayFaults: Set<FaultKind> = [.eclipse, .stale]

    /// Why `scenario` cannot run on the real lane, or nil. Never silently dropped: the run is
    /// reported `unsupported` with this reason.
    package static func unsupported(_ scenario: Scenario, launcher: any RealNetworkLauncher) -> String? {
        var reasons: [String] = []
        func scan(_ steps: [Step]) {
            for step in steps {
                switch step.action {
                case .fault(let fault) where hostileRelayFaults.contains(fault.kind):
                    reasons.append("fault '\(fault.kind.rawValue)' is a hostile relay's conduct, which the lane's relays do not have")
                case .fault(let fault) where orderedFaults.contains(fault.kind) && !launcher.takesOrders:
                    reasons.append("fault '\(fault.kind.rawValue)' needs the relay's help, which this relay kind does not give")
                case .inject:
                    reasons.append("'inject' writes into the in-memory relay's store")
                case .attack:
                    reasons.append("'attack' publishes forged traffic through the in-memory relay")
                default:
                    scan(step.substeps)
                }
            }
        }
        scan(scenario.steps)
        if scenario.relays.contains(where: { $0.maximumEventBytes != nil }) {
            reasons.append("a relay's 'max-event-bytes' is not passed to the relay processes")
        }
        if let policy = launcher.unsupported(relays(scenario)) { reasons.append(policy) }
        guard let first = reasons.first else { return nil }
        return "unsupported on the real network lane: \(first)" + (reasons.count > 1 ? " (and \(reasons.count - 1) more)" : "")
    }

    /// The relays a run of `scenario` needs, as its world names them.
    static func relays(_ scenario: Scenario) -> [RealRelaySpec] {
        guard !scenario.relays.isEmpty else { return WorldConfiguration.standardRelays.map { RealRelaySpec(name: $0.name, policies: []) } }
        return scenario.relays.map { RealRelaySpec(name: $0.name, policies: $0.policies, maximumResults: $0.maximumResults) }
    }

    /// The lane's own check: the relays and their sockets worked (an error otherwise, never a pass).
    static func check(_ world: World, run: any RealNetworkRun) -> CheckResult {
        let failures = world.network.externalInfrastructureFailures
        return CheckResult(
            check: "real relays and sockets", clause: clause, verdict: failures.isEmpty ? .pass : .error,
            detail: failures.isEmpty ? run.summary() : failures.prefix(5).joined(separator: "; "))
    }
}
