import DeterministicScheduler
import GroupCore
import InMemoryRelay
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// A welcome refused while a resubscription catches up is kept only for that catch-up
/// (docs/group-core.md, "Welcomes after the catch-up"); no welcome waits for a catch-up, so a
/// group relay that never ends its stored events (hung: no EOSE) holds no invitation up.
@Suite struct HeldWelcomeWorldTests {
    /// alice's groups live on `group` and on `stuck`, a hung relay. bob, in Team, is cut off and
    /// comes back: his resubscription there never catches up. Invited to Second, he joins at once.
    @Test func aHungGroupRelayHoldsNoWelcomeUp() async throws {
        var relays = WorldConfiguration.standardRelays
        var hung = RelayPolicy()
        hung.answers = false
        relays.append(.init("stuck", role: .group, policy: hung))
        let world = World(configuration: WorldConfiguration(seed: 0x11_00_77, relays: relays)) { context in
            NativeSwiftEngine(generator: context.generator, clock: context.clock)
        }
        for label in ["alice", "bob"] { try await world.addMember(label, options: MemberOptions(groupRelays: ["group", "stuck"])) }
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob")], name: "Team", description: "", onPartialFailure: .proceed, admins: []))
        await world.run(for: .seconds(10))
        #expect(try await world.state(of: "bob").chatList.map(\.groupName) == ["Team"])
        // bob loses every connection and comes back: his resubscriptions catch up, stuck's never.
        world.network.partition("bob")
        await world.run(for: .seconds(3))
        world.network.heal("bob")
        await world.run(for: .seconds(10))

        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob")], name: "Second", description: "", onPartialFailure: .proceed, admins: []))
        await world.run(for: .seconds(2))
        #expect(
            Set(try await world.state(of: "bob").chatList.map(\.groupName)) == ["Team", "Second"], "joined while stuck's catch-up is open")
        try await world.checkUpdateStreams()
    }
}
