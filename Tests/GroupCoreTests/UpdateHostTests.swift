import DeterministicScheduler
import Simulation
import Testing

@testable import GroupCore

/// The host's rules for `rev` (docs/architecture.md, "The host and `rev`") and the oracle that
/// judges them ("host view"), with its twin: a host that applies stale updates is caught.
@Suite struct UpdateHostTests {
    private func update(_ rev: UInt64) -> AppUpdate {
        var state = AppState()
        state.rev = rev
        return AppUpdate(rev: rev, cause: "test", state: state)
    }

    @Test func staleUpdatesAreDroppedAndAGapAsksForTheWholeState() {
        var host = UpdateHost()
        #expect(host.receive(update(1)) == .applied)
        #expect(host.receive(update(2)) == .applied)
        #expect(host.receive(update(2)) == .droppedStale, "a duplicate")
        #expect(host.receive(update(1)) == .droppedStale, "an overtaken update")
        #expect(host.receive(update(4)) == .resync, "rev 3 was lost")
        #expect(host.lastRev == 2, "a resync is the caller's to carry out")
        host.resynced(update(5).state)
        #expect(host.lastRev == 5 && host.view.rev == 5)
        #expect(host.receive(update(4)) == .droppedStale, "older than the resynced state")
        #expect(host.regressions.isEmpty && host.staleDropped == 3 && host.resyncs == 1 && host.applied == 2)
    }

    @Test func aHostApplyingStaleUpdatesGoesBackInTime() {
        var host = UpdateHost(rules: .appliesStale)
        _ = host.receive(update(1))
        _ = host.receive(update(2))
        _ = host.receive(update(1))
        #expect(host.view.rev == 1 && host.regressions == ["2 → 1"])
    }

    @Test func theChannelHandsOverWhatItHeldWhenItCloses() {
        // Every update meets a perturbation on some seed; whatever happened, closing hands over
        // the last one if it never arrived.
        for seed in UInt64(1)...20 {
            var channel = UpdateChannel(perturbations: [.drop, .reorder], stream: SeededGenerator(seed: seed))
            var arrived: [UInt64] = []
            for rev in UInt64(1)...6 { arrived += channel.offer(update(rev)).arrivals.map(\.rev) }
            arrived += channel.close().map(\.rev)
            #expect(arrived.contains(6), "seed \(seed): \(arrived)")
        }
    }

    /// A world of members whose engine refuses everything still updates its state several times
    /// (key-package lookups, failures): enough traffic for the channel to misbehave.
    private func world(seed: UInt64, rules: UpdateHostRules, perturbations: [UpdatePerturbation]) async throws -> World {
        let world = World(configuration: WorldConfiguration(seed: seed), makeEngine: { _ in RefusingEngine() })
        var options = MemberOptions()
        options.updateDelivery = perturbations
        options.hostRules = rules
        for label in ["alice", "bob", "carol"] { try await world.addMember(label, options: options) }
        await world.runUntilQuiescent()
        let peers = try ["bob", "carol"].map { try #require(world.member($0)?.publicKey) }
        await world.dispatch("alice", .createGroup(peers: peers, name: "g", description: "", onPartialFailure: .proceed))
        await world.dispatch("bob", .createChat(peer: peers[1]))
        await world.runUntilQuiescent()
        await world.dispatch("carol", .createChat(peer: peers[0]))
        await world.runUntilQuiescent()
        return world
    }

    @Test func theDocumentedRulesKeepEveryHostRightOnEverySeed() async throws {
        for seed in UInt64(1)...8 {
            let world = try await world(seed: seed, rules: .documented, perturbations: [.duplicate, .reorder, .drop])
            #expect(await world.hostViewViolations().isEmpty, "seed \(seed)")
            #expect(world.hostSummaries().count == 3)
        }
    }

    /// The twin: the same channels, a host that applies stale updates; the oracle names it.
    @Test func theHostOracleCatchesAHostThatAppliesStaleUpdates() async throws {
        var caught: [String] = []
        for seed in UInt64(1)...8 {
            let world = try await world(seed: seed, rules: .appliesStale, perturbations: [.duplicate, .reorder])
            caught += await world.hostViewViolations()
        }
        #expect(caught.contains { $0.contains("the host's view went back") }, "\(caught)")
        #expect(caught.contains { $0.contains("the host shows rev") }, "\(caught)")
    }

    /// Unperturbed channels leave the run as it was: no host line in the trace.
    @Test func anUnperturbedHostAddsNothingToTheTrace() async throws {
        let world = try await world(seed: 4, rules: .documented, perturbations: [])
        #expect(!world.log.entries.contains { $0.category == "host" })
        #expect(await world.hostViewViolations().isEmpty)
        #expect(world.hostSummaries().isEmpty)
    }
}
