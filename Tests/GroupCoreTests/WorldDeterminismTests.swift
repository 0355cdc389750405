import DeterministicScheduler
import GroupCore
import InMemoryRelay
import Nostr
import Simulation
import Testing

/// With engines that draw nothing of their own, a world run is a function of its seed.
@Suite struct WorldDeterminismTests {
    private func run(seed: UInt64) async throws -> (RunRecord, end: VirtualInstant) {
        let world = World(configuration: WorldConfiguration(seed: seed), makeEngine: { _ in RefusingEngine() })
        world.network.jitter = .milliseconds(15)
        world.network.addFault(FaultRule(
            scope: .member("alice"), direction: .toMember, selector: FrameSelector(verbs: ["EVENT"]), action: .duplicate))
        for label in ["alice", "bob", "carol"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        let peers = try ["bob", "carol"].map { try #require(world.member($0)?.publicKey) }
        await world.dispatch("alice", .createGroup(peers: peers, name: "g", description: "", onPartialFailure: .proceed))
        await world.run(for: .seconds(1))
        world.network.setRelay("keypackages", up: false)
        await world.dispatch("bob", .createChat(peer: peers[1]))
        await world.runUntilQuiescent()
        return (await world.runRecord(), world.now)
    }

    @Test func sameSeedSameRunOtherSeedOtherRun() async throws {
        let first = try await run(seed: 7).0
        let second = try await run(seed: 7).0
        #expect(first == second, "\(String(describing: first.log.firstDivergence(from: second.log)))")
        let other = try await run(seed: 8).0
        #expect(other.fingerprint != first.fingerprint)

        // What the run did: no key packages (the engine refuses), so alice's invitees have none,
        // and bob's lookup fails on the downed relay.
        let alice = try #require(first.states["alice"])
        #expect(alice.failedPeers.map(\.reason) == [.noKeyPackage, .noKeyPackage])
        #expect(alice.errors.map(\.code) == [.engine, .allPeersFailed])
        let bob = try #require(first.states["bob"])
        #expect(bob.failedPeers.map(\.reason) == [.relayDown])
        #expect(bob.errors.map(\.code) == [.engine, .allPeersFailed])
    }

    @Test func timersAndDeliveriesShareOneTimeline() async throws {
        let (outcome, end) = try await run(seed: 9)
        let times = outcome.log.entries.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "the log never goes back in time")
        // The fetch timers (5 s) fired after the deliveries that preceded them.
        #expect(outcome.log.entries.contains { $0.category == "timer" })
        #expect(end >= VirtualInstant(microseconds: 5_000_000))
    }
}
