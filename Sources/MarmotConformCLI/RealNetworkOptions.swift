// `run --network real` (docs/real-network.md): the options, and the launcher that gives each run its
// relay processes behind the socket fault proxy.
import ArgumentParser
import Foundation
import InMemoryRelay
import RealNetwork
import RelayWebSocketServer
import ScenarioModel
import ScenarioRunner

/// Which network a run uses.
enum NetworkLaneName: String, ExpressibleByArgument, CaseIterable {
    /// The deterministic in-memory world (the gate).
    case memory
    /// Real relay processes on loopback, real WebSockets, through the fault proxy.
    case real
}

extension RelayKind: ExpressibleByArgument {}

/// A socket fault the proxy gives every member connection (`--proxy-fault`): `none`, `split:BYTES`,
/// `delay:MS`, `pause:MS`.
struct ProxyFaultArgument: ExpressibleByArgument, Sendable {
    let fault: SocketFaultProxy.Fault
    /// As given on the command line.
    let text: String

    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        let value = parts.count == 2 ? Int(parts[1]) : nil
        text = argument
        switch (parts[0], value) {
        case ("none", nil) where parts.count == 1: fault = .none
        case ("split", let bytes?) where bytes >= 1: fault = .split(bytes: bytes)
        case ("delay", let milliseconds?) where (0...5_000).contains(milliseconds): fault = .delay(milliseconds: milliseconds)
        case ("pause", let milliseconds?) where (0...5_000).contains(milliseconds): fault = .pauseReading(milliseconds: milliseconds)
        default: return nil
        }
    }

    var defaultValueDescription: String { "none" }
}

struct RealNetworkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "memory: the deterministic world (the gate). real: every relay a real process on 127.0.0.1, every member connection a "
                + "real WebSocket through the socket fault proxy; judged by end state and oracles (no vectors or fingerprints; "
                + "docs/real-network.md).",
            valueName: "memory|real"))
    var network: NetworkLaneName = .memory

    @Option(
        help: ArgumentHelp(
            "With --network real: the relay server each scenario relay runs (ours: marmot-conform relay; localrelay: rust-nostr's "
                + "LocalRelay from the venv, drivers/relays/localrelay-host.py).", valueName: "ours|localrelay"))
    var relayServer: RelayKind = .ours

    @Option(
        help: ArgumentHelp(
            "With --network real: a socket fault for every member connection (none, split:BYTES, delay:MS up to 5000, pause:MS up to 5000).",
            valueName: "fault"))
    var proxyFault = ProxyFaultArgument(argument: "none")!

    var isReal: Bool { network == .real }

    /// Refuses what the real lane cannot give (`jobs`, `shard`, `matrix`, vectors, determinism).
    func validate(jobs: Int, shard: Bool, matrix: Bool, updateVectors: Bool, checkDeterminism: Bool) throws {
        guard isReal else {
            if relayServer != .ours || proxyFault.fault != .none {
                throw ValidationError("--relay-server and --proxy-fault need --network real")
            }
            return
        }
        if checkDeterminism {
            throw ValidationError(
                "--check-determinism needs the in-memory world: real sockets and relay processes do not replay (--network real)")
        }
        if updateVectors { throw ValidationError("--update-vectors records the in-memory world's outcomes: run it without --network real") }
        if matrix || jobs > 1 || shard {
            throw ValidationError("--network real runs in one process: run it without --matrix, --jobs and --shard")
        }
    }

    /// The launcher for the executor; nil on the in-memory world. Commands work from the
    /// repository root (Repository), where the venv and the LocalRelay host are.
    func launcher() throws -> (any RealNetworkLauncher)? {
        guard isReal else { return nil }
        guard let executable = Repository.executable?.path else { throw ValidationError("cannot find this executable to start relays") }
        var words = "--network real"
        if relayServer != .ours { words += " --relay-server \(relayServer.rawValue)" }
        if proxyFault.fault != .none { words += " --proxy-fault \(proxyFault.text)" }
        return ProcessRelayLauncher(
            executable: executable, root: FileManager.default.currentDirectoryPath, server: relayServer, fault: proxyFault.fault,
            commandArguments: words)
    }
}

/// Starts each run's relays as child processes of the chosen kind, behind a proxy each.
struct ProcessRelayLauncher: RealNetworkLauncher {
    let executable: String
    /// The repository root (the LocalRelay host and the venv's interpreter are under it).
    let root: String
    let server: RelayKind
    let fault: SocketFaultProxy.Fault
    let commandArguments: String

    /// Our relay takes the lane's orders (`relay --lane-orders`).
    var takesOrders: Bool { server == .ours }

    func unsupported(_ relays: [RealRelaySpec]) -> String? {
        for relay in relays {
            if let policy = relay.policies.first(where: { Self.requirement(for: $0) == nil && $0 != .down }) {
                return "relay '\(relay.name)': policy '\(policy.rawValue)' is not offered by the \(server.rawValue) relay process"
            }
            if let reason = server.unsupported(Self.requirements(of: relay)) { return "relay '\(relay.name)': \(reason)" }
        }
        return nil
    }

    func start(_ relays: [RealRelaySpec]) async throws -> any RealNetworkRun {
        let fault = fault
        let commands = Dictionary(
            uniqueKeysWithValues: relays.map {
                ($0.name, server.command(for: Self.requirements(of: $0), marmotConform: executable, root: root))
            })
        // Every name comes from `relays`, so each has its command; a default keeps the lookup total.
        let plain = server.command(for: RelayKind.Requirements(), marmotConform: executable, root: root)
        let starter: @Sendable (String) async throws -> RelayEndpoint = { name in
            let command = commands[name] ?? plain
            return try await RelayProcess.start(executable: command.executable, arguments: command.arguments)
        }
        let fleet = try await RelayFleet.start(relays.map(\.name), faults: { _, _ in fault }, starter: starter)
        return FleetRun(fleet: fleet)
    }

    static func requirements(of relay: RealRelaySpec) -> RelayKind.Requirements {
        var requirements = RelayKind.Requirements(maximumResults: relay.maximumResults)
        for policy in relay.policies { Self.requirement(for: policy)?(&requirements) }
        return requirements
    }

    /// What a scenario policy asks of the relay process, if a relay process can do it at all.
    static func requirement(for policy: RelayPolicyName) -> ((inout RelayKind.Requirements) -> Void)? {
        switch policy {
        case .rejectProtected: { $0.rejectsProtected = true }
        case .requireAuth: { $0.giftWrapsRequireAuth = true }
        case .down, .keepsExpired, .hung: nil
        }
    }
}

/// A fleet as the executor sees it.
struct FleetRun: RealNetworkRun {
    let fleet: RelayFleet
    var links: any ExternalRelayLinks { fleet.sockets }
    func summary() -> String { fleet.summary() }
    func stop() async -> [String] { await fleet.stop() }
}
