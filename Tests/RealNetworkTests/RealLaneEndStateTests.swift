import ConformanceTestSupport
import DeterministicScheduler
import Foundation
import GroupCore
import InMemoryRelay
import NativeSwiftEngine
import RealNetwork
import RelayWebSocketServer
import ScenarioModel
import Synchronization
import Testing

@testable import ScenarioRunner

/// The real-network lane against the in-memory world (docs/real-network.md): the same scenario, run
/// once in memory and once over real WebSockets to real relay servers through the socket fault
/// proxy, splitting, delaying and resetting connections, must end in the same state (members,
/// epochs as names and membership, messages: the stored-vector outcome). The twin shows the
/// comparison can fail: a reset that loses a publish, with GroupCore's recovery switched off, ends
/// elsewhere. Relays are served in this process (RelayWebSocketServer on the wall clock); the
/// CLI's lane runs them as child processes, which `marmot-conform run --network real` exercises.
/// Every socket wait is bounded (RelaySockets' waits and answer bound).
@Suite(.serialized) struct RealLaneEndStateTests {
    static let engines = EngineSet([
        "swift": EngineSet.Entry(
            factory: { context in NativeSwiftEngine(generator: context.generator, clock: context.clock) }, deterministic: true)
    ])

    static func scenario(_ path: String) throws -> Scenario {
        let url = Vectors.repositoryRoot.appendingPathComponent(path)
        return try Scenario(yaml: try String(contentsOf: url, encoding: .utf8), file: path)
    }

    /// Relays served in this process, each behind a proxy doing `faults`.
    struct InProcessLauncher: RealNetworkLauncher {
        let faults: ProxyFaultPlan
        /// Relays that read every frame and answer none (`RelayPolicy.answers` false).
        var hung: Set<String> = []
        var bounds = RelaySockets.Bounds()
        let fleets = Fleets()

        func unsupported(_ relays: [RealRelaySpec]) -> String? { nil }
        var takesOrders: Bool { false }
        var commandArguments: String { "--network real" }

        func start(_ relays: [RealRelaySpec]) async throws -> any RealNetworkRun {
            let hung = hung
            let fleet = try await RelayFleet.start(relays.map(\.name), bounds: bounds, faults: faults) { name in
                var policy = RelayPolicy()
                policy.answers = !hung.contains(name)
                let relay = Relay(url: "ws://\(name)", policy: policy, generator: SeededGenerator(seed: 7).child(name))
                let server = try RelayWebSocketServer.start(port: 0, relay: relay) { UInt64(Date().timeIntervalSince1970) }
                return RelayEndpoint(port: server.port) {
                    do {
                        try server.stop()
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
            }
            fleets.add(fleet)
            return Run(fleet: fleet)
        }

        struct Run: RealNetworkRun {
            let fleet: RelayFleet
            var links: any ExternalRelayLinks { fleet.sockets }
            func summary() -> String { fleet.summary() }
            func stop() async -> [String] { await fleet.stop() }
        }
    }

    /// The fleets a launcher started, for reading their proxies' records afterwards.
    final class Fleets: Sendable {
        private let started = Locked<[RelayFleet]>([])
        func add(_ fleet: RelayFleet) { started.mutate { $0.append(fleet) } }
        var all: [RelayFleet] { started.read() }
    }

    static func inMemory(_ scenario: Scenario, recovery: Bool = true) async -> Execution {
        var executor = ScenarioExecutor(engines: engines, epochUnixSeconds: RunPlan.epochUnixSeconds)
        if !recovery { executor.recovery = Self.noRecovery }
        return await executor.execute(scenario, seed: 1, selection: .swift, reproduce: "-")
    }

    static func overProxy(
        _ scenario: Scenario, recovery: Bool = true, launcher: InProcessLauncher? = nil,
        faults: @escaping ProxyFaultPlan = { _, _ in .none }
    ) async -> (Execution, [RelayFleet]) {
        var executor = ScenarioExecutor(engines: engines, epochUnixSeconds: UInt64(Date().timeIntervalSince1970))
        let launcher = launcher ?? InProcessLauncher(faults: faults)
        executor.realNetwork = launcher
        if !recovery { executor.recovery = Self.noRecovery }
        let execution = await executor.execute(scenario, seed: 1, selection: .swift, reproduce: "-")
        return (execution, launcher.fleets.all)
    }

    static var noRecovery: CoreConfiguration.Behaviour.Recovery {
        var recovery = CoreConfiguration.Behaviour.Recovery()
        recovery.storedCommits = false
        recovery.writesAhead = false
        recovery.restartsTimers = false
        recovery.resubscribesAfterRestart = false
        recovery.resendsAfterRestart = false
        recovery.keepsHeldBatch = false
        recovery.rederivesAfterRestart = false
        recovery.marksUnrecoverableGroups = false
        recovery.welcomes = false
        recovery.controlOutbox = false
        recovery.refusedPublishes = false
        recovery.resubscribes = false
        recovery.unansweredPublishes = false
        return recovery
    }

    static func endState(_ execution: Execution) -> Outcome? { execution.outcome.map(ConformanceRunner.vectorOutcome) }

    static func failing(_ execution: Execution) -> [String] {
        execution.run.checks.filter { $0.verdict != .pass && $0.verdict != .info }.map { "\($0.check): \($0.detail) \($0.observed ?? "")" }
    }

    @Test func fourMembersEndTheSameOverSplitDelayedAndResetConnections() async throws {
        let scenario = try Self.scenario("scenarios/group-lifecycle/four-members.yaml")
        let memory = await Self.inMemory(scenario)
        #expect(memory.run.verdict == .pass, "\(Self.failing(memory))")
        // On the group relay: the first connection split into 5-byte pieces, the second delayed
        // 30 ms each way, the third reset after 700 bytes from the relay (mid-frame, past the handshake).
        let (real, fleets) = await Self.overProxy(scenario) { relay, index in
            guard relay == "group" else { return .none }
            switch index {
            case 0: return .split(bytes: 5, gapMilliseconds: 0)
            case 1: return .delay(milliseconds: 30)
            case 2: return .reset(after: 700, direction: .toClient)
            default: return .none
            }
        }
        #expect(real.run.lane == "real")
        #expect(real.run.fingerprint == nil)
        #expect(real.run.verdict == .pass, "\(Self.failing(real))")
        let records = try #require(fleets.first?.proxyRecords["group"])
        // The faults acted: the split cut chunks into more writes, the reset ended its connection.
        #expect(records.count >= 3)
        if records.count >= 3 {
            #expect((records[0].writes[.toClient] ?? 0) > 1 && (records[0].forwarded[.toClient] ?? 0) > 0)
            #expect(records[1].reachedServer && (records[1].forwarded[.toServer] ?? 0) > 0)
            #expect(records[2].ending == "reset")
        }
        let expected = try #require(Self.endState(memory))
        let observed = try #require(Self.endState(real))
        #expect(expected.differences(from: observed).isEmpty, "\(expected.differences(from: observed))")
    }

    /// The twin: the creator's connection to the group relay is reset in the middle of what it
    /// sends (a publish cut mid-frame never reaches the relay), and GroupCore's recovery is off, so
    /// nothing sends it again. The same comparison now finds the end states apart.
    @Test func aResetThatLosesAPublishWithNoRetryEndsElsewhere() async throws {
        let scenario = try Self.scenario("scenarios/group-lifecycle/four-members.yaml")
        let memory = await Self.inMemory(scenario)
        let (real, fleets) = await Self.overProxy(scenario, recovery: false) { relay, index in
            relay == "group" && index == 0 ? .reset(after: 1_200, direction: .toServer) : .none
        }
        let records = try #require(fleets.first?.proxyRecords["group"])
        #expect(records.first?.ending == "reset")
        #expect(records.first?.forwarded[.toServer] == 1_200)
        let expected = try #require(Self.endState(memory))
        let observed = try #require(Self.endState(real))
        #expect(!expected.differences(from: observed).isEmpty)
        #expect(real.run.verdict != .pass)
        // The same reset with recovery on: the publish goes out again and the end state is the same,
        // so what made the difference above is the lost publish, not the reset itself.
        let (recovered, _) = await Self.overProxy(scenario) { relay, index in
            relay == "group" && index == 0 ? .reset(after: 1_200, direction: .toServer) : .none
        }
        #expect(recovered.run.verdict == .pass, "\(Self.failing(recovered))")
        let recoveredState = try #require(Self.endState(recovered))
        #expect(expected.differences(from: recoveredState).isEmpty, "\(expected.differences(from: recoveredState))")
    }

    /// No false pass: a relay that reads what it is sent and never answers leaves its OKs owed past
    /// the answer bound (100 ms of quiet here), and the run is an error, not a pass or a failure of
    /// the engine. Its twin is every passing run above, where the same check passes.
    @Test func aRelayThatNeverAnswersIsAnInfrastructureError() async throws {
        let scenario = try Self.scenario("scenarios/group-lifecycle/four-members.yaml")
        var bounds = RelaySockets.Bounds()
        bounds.answerMilliseconds = 100
        var launcher = InProcessLauncher(faults: { _, _ in .none })
        launcher.hung = ["group"]
        launcher.bounds = bounds
        let (real, _) = await Self.overProxy(scenario, launcher: launcher)
        #expect(real.run.verdict == .error)
        let check = try #require(real.run.checks.first { $0.check == "real relays and sockets" })
        #expect(check.verdict == .error)
        #expect(check.detail.contains("relay group left"), "\(check.detail)")
    }
}

/// A value behind a lock that a Sendable class can hold.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func mutate(_ change: (inout Value) -> Void) { mutex.withLock { change(&$0) } }
    func read() -> Value { mutex.withLock { $0 } }
}
