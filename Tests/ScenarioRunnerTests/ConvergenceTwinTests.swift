import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import Foundation
import GroupCore
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

@testable import ScenarioModel
@testable import ScenarioRunner

/// The twins of `converged`'s exact-state layer: a member that forks silently at an equal epoch
/// number (SilentForkEngine) must fail it, on our engine and on MDK; and members that did not fork
/// must agree on every digest both expose, across engines too.
@Suite struct ConvergenceTwinTests {
    /// alice creates a group with bob and carol; bob's engine is the fork twin.
    static func world(
        seed: UInt64, epoch: UInt64, trigger: ForkTrigger, engine: @escaping @Sendable (EngineContext) async throws -> any ProtocolEngine
    )
        async throws -> (World, chatID: String)
    {
        let world = World(
            configuration: WorldConfiguration(seed: seed, epochUnixSeconds: epoch),
            makeEngine: { context in
                let base = try await engine(context)
                return context.label == "bob" ? SilentForkEngine(base: base, trigger: trigger) : base
            })
        for label in ["alice", "bob", "carol"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        let peers = try ["bob", "carol"].map { try #require(world.member($0)?.publicKey) }
        await world.dispatch("alice", .createGroup(peers: peers, name: "Team", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let chat = try #require(await world.member("alice")?.core.state().chatList.first)
        return (world, chat.chatID)
    }

    /// alice commits a rename to the same name (no visible change); bob forks on it.
    static func forkBob(_ world: World, chatID: String, trigger: ForkTrigger) async throws {
        let before = world.published.count
        await world.dispatch("alice", .rename(chatID: chatID, name: "Team"))
        let commit = try #require(world.published[before...].first { $0.member == "alice" && $0.event.kind == .groupEvent }?.event)
        trigger.arm(commit.id)
        await world.runUntilQuiescent()
        #expect(trigger.forks == [commit.id], "bob never received alice's commit")
    }

    /// The fork is invisible to everything but the exact state: same epoch, name, members, admins,
    /// nobody ahead; `converged` fails naming the digests that differ.
    static func expectCaught(_ world: World, digests: [String]) async throws {
        var epochs: Set<UInt64> = []
        for label in ["alice", "bob", "carol"] {
            epochs.insert(try #require(await world.member(label)?.core.state().chatList.first).epoch)
        }
        #expect(epochs.count == 1, "the twin must fork at an equal epoch number: \(epochs)")
        #expect(await MessageOracles.noMemberAhead(in: world).verdict == .pass)
        let check = await Convergence.check("converged", in: world)
        #expect(check.verdict == .fail)
        let observed = check.observed ?? ""
        #expect(!observed.contains("name Team, epoch"), "layer 1 must agree: \(observed)")
        for digest in digests { #expect(observed.contains("\(digest): "), "\(digest) not named: \(observed)") }
    }

    @Test func aSilentForkOnOurEngineFailsConverged() async throws {
        let trigger = ForkTrigger()
        let (world, chatID) = try await Self.world(seed: 0xF0_0001, epoch: 1_700_000_000, trigger: trigger) { context in
            NativeSwiftEngine(generator: context.generator, clock: context.clock)
        }
        #expect(await Convergence.check("converged", in: world).verdict == .pass)
        try await Self.forkBob(world, chatID: chatID, trigger: trigger)
        try await Self.expectCaught(world, digests: ["exporter_commitment", "group_context_hash", "ratchet_tree_digest", "tree_hash"])
    }

    @Test(.enabled(if: PythonVenv.interpreter != nil, "no .venv with mdk-python: run ci/setup to enable MDK-backed twins"))
    func aSilentForkOnMDKFailsConverged() async throws {
        let driver = try await Self.launchDriver()
        let trigger = ForkTrigger()
        let (world, chatID) = try await Self.world(seed: 0xF0_0002, epoch: 1_700_000_000, trigger: trigger) { context in
            try await Self.mdkEngine(in: driver, for: context)
        }
        #expect(await Convergence.check("converged", in: world).verdict == .pass)
        try await Self.forkBob(world, chatID: chatID, trigger: trigger)
        // MDK 0.8.0 exposes only the ratchet-tree digest.
        try await Self.expectCaught(world, digests: ["ratchet_tree_digest"])
        await driver.shutdown()
    }

    /// Our ratchet-tree digest is computed as MDK computes its `tree_hash`: in a mixed group that did
    /// not fork, the Swift and MDK members report the same one (else mixed runs could not converge).
    @Test(.enabled(if: PythonVenv.interpreter != nil, "no .venv with mdk-python: run ci/setup to enable MDK-backed twins"))
    func swiftAndMDKMembersReportTheSameRatchetTreeDigest() async throws {
        let driver = try await Self.launchDriver()
        let (world, _) = try await Self.world(seed: 0xF0_0003, epoch: 1_700_000_000, trigger: ForkTrigger()) { context in
            if context.label == "alice" { return NativeSwiftEngine(generator: context.generator, clock: context.clock) }
            return try await Self.mdkEngine(in: driver, for: context)
        }
        var digests: [String: String] = [:]
        for label in ["alice", "bob", "carol"] {
            let engine = try #require(world.member(label)?.engine)
            let group = try #require(try await engine.groups().first)
            // Bound first: assigned straight into the dictionary's `String?` subscript, #require
            // would resolve to its non-optional overload and check nothing.
            let digest = try #require(try await engine.exactState(of: group.mlsGroupID).ratchetTreeDigest)
            digests[label] = digest
        }
        // MDK runs on the world's clock through its shim, so however loaded the machine, both
        // engines stamp and judge events by the same virtual time.
        let check = await Convergence.check("converged", in: world)
        #expect(Set(digests.values).count == 1, "\(digests); \(check.observed ?? "")")
        #expect(check.verdict == .pass, "\(check.observed ?? "")")
        await driver.shutdown()
    }

    /// The MDK driver with the world shim preloaded (ci/setup makes both).
    static func launchDriver() async throws -> DriverProcess {
        let python = try #require(PythonVenv.interpreter)
        let script = Vectors.repositoryRoot.appendingPathComponent("drivers/mdk/driver.py").path
        let shim = Vectors.repositoryRoot.appendingPathComponent(".venv/lib/libworldshim.so").path
        return await DriverProcess.launch(executable: python.path, arguments: [script], environment: ["LD_PRELOAD": shim])
    }

    /// An MDK member on the world's clock and its own seeded stream.
    static func mdkEngine(in driver: DriverProcess, for context: EngineContext) async throws -> any ProtocolEngine {
        try await driver.makeEngine(
            instance: context.label, encryptionKey: context.storageKey, world: WorldFeed(clock: context.clock, generator: context.generator)
        )
    }
}
