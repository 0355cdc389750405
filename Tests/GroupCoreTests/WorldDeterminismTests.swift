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
        world.network.addFault(
            FaultRule(
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

    /// The rev-continuity oracle's twin: a host that lost one update of the stream is caught,
    /// naming the member, while the untouched stream passes.
    @Test func revContinuityCatchesALostUpdate() async throws {
        let world = World(configuration: WorldConfiguration(seed: 3), makeEngine: { _ in RefusingEngine() })
        for label in ["alice", "bob"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        let bob = try #require(world.member("bob")?.publicKey)
        await world.dispatch("alice", .createChat(peer: bob))
        await world.runUntilQuiescent()
        #expect(await world.updateStreamViolations().isEmpty)
        let count = try #require(world.member("alice")?.updates.count)
        #expect(count >= 3)
        world.loseRecordedUpdate(of: "alice", at: 1)
        let violations = await world.updateStreamViolations()
        #expect(violations.count == 1 && violations[0].hasPrefix("alice: revs"), "\(violations)")
        // Losing the last one leaves the stream continuous but behind the core's state.
        let bobUpdates = try #require(world.member("bob")?.updates.count)
        try #require(bobUpdates >= 1)
        world.loseRecordedUpdate(of: "bob", at: bobUpdates - 1)
        let after = await world.updateStreamViolations()
        let expected =
            bobUpdates == 1 ? "bob: state() is at rev 1 but no update reached the host" : "bob: state() differs from the last update"
        #expect(after.contains(expected), "\(after)")
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
