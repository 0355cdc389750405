import ExternalProcessEngine
import GroupCore
import InMemoryRelay
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// GroupCore's invitation splitting, in small worlds with a tight welcome limit (what a 64 KiB relay
/// does to 100-member groups, at 10 members): one create action still welcomes everyone when the
/// welcomes fit one at a time, and when the tree itself outgrows the limit, the invitees left are
/// refused visibly and never committed.
@Suite struct InvitationSplitWorldTests {
    static let invitees = (1...9).map { "m\($0)" }

    /// Alice invites m1…m9 in one action with her welcome limit set so that a rumor of
    /// `rumorBudget` bytes is the largest that fits; returns the world once quiescent.
    /// `aliceAssumes` sets her own assumption too (the limit of relays she has no NIP-11 word
    /// from); `aliceReadsRelays: false` empties what she read from the relays.
    static func create(
        rumorBudget: Int, driver: DriverProcess? = nil, aliceAssumes: Bool = true, aliceReadsRelays: Bool = true
    ) async throws -> World {
        // The inbox relay refuses larger events, as a 64 KiB relay refuses a 100-member welcome.
        let limit = GiftWrap.sizes(rumorJSONBytes: rumorBudget).wrap
        let relays = WorldConfiguration.standardRelays.map { relay in
            relay.name == "inbox"
                ? WorldConfiguration.RelaySpec("inbox", role: .inbox, policy: RelayPolicy(role: .inbox, maximumEventBytes: limit)) : relay
        }
        let world =
            driver.map { MDKWorld.make(seed: 0x5CA1E, driver: $0, relays: relays) }
            ?? World(
                configuration: WorldConfiguration(seed: 0x5CA1E, relays: relays),
                makeEngine: { context in
                    NativeSwiftEngine(generator: context.generator, clock: context.clock)
                })
        var alice = MemberOptions()
        if aliceAssumes { alice.behaviour.welcomeEventLimitBytes = limit }
        if !aliceReadsRelays { alice.relayEventLimits = [:] }
        try await world.addMember("alice", options: alice)
        for label in invitees { try await world.addMember(label) }
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: try invitees.map(world.key), name: "Split", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        return world
    }

    @Test func oneActionWelcomesEveryoneThroughSeveralCommits() async throws {
        try await Self.checkEveryoneWelcomed(in: try await Self.create(rumorBudget: 4_500))
    }

    /// Alice assumes 64 KiB for relays she knows nothing of, but the invitees' inbox relay says
    /// (NIP-11) that it takes less: her welcomes are sized for it, and everyone joins.
    @Test func welcomesAreSizedForTheLimitTheInboxRelayDeclares() async throws {
        try await Self.checkEveryoneWelcomed(in: try await Self.create(rumorBudget: 4_500, aliceAssumes: false))
    }

    /// Its twin: an app that does not read the relay's limit sends welcomes the relay refuses;
    /// nobody joins, and the failure is reported, not hidden.
    @Test func welcomesSizedWithoutTheRelaysLimitAreRefused() async throws {
        let world = try await Self.create(rumorBudget: 4_500, aliceAssumes: false, aliceReadsRelays: false)
        let alice = try await world.state(of: "alice")
        #expect(alice.errors.contains { $0.code == .welcomeUndelivered })
        // The outcome is per invitee (mdk#1706): each stranded one is a failed peer of its own.
        let stranded = Set(alice.failedPeers.filter { $0.reason == .welcomeUndelivered }.map(\.pubkey))
        #expect(stranded == Set(try Self.invitees.map(world.key)))
        let chat = try await world.onlyChat(of: "alice")
        for label in Self.invitees {
            #expect(try await world.chat(chat.chatID, of: label) == nil, "\(label) joined through a relay that refuses its welcome")
        }
    }

    /// The same with MDK 0.8.0 members: its add commits are built, measured, cleared and built
    /// again with fewer invitees.
    @Test(.enabled(if: MDKWorld.isAvailable)) func mdkMembersAreWelcomedThroughSeveralCommits() async throws {
        let driver = try await MDKWorld.launchDriver()
        try await Self.checkEveryoneWelcomed(in: try await Self.create(rumorBudget: 4_600, driver: driver))
    }

    static func checkEveryoneWelcomed(in world: World) async throws {
        // A 10-member creation's welcomes are ~5.8 KB each; 4,500 bytes forces several commits.
        let chat = try await world.onlyChat(of: "alice")
        let everyone = Set(try (["alice"] + Self.invitees).map(world.key))
        #expect(Set(chat.roster.map(\.pubkey)) == everyone)
        #expect(try await world.state(of: "alice").errors.isEmpty)
        for label in Self.invitees {
            #expect(Set(try #require(try await world.chat(chat.chatID, of: label), "\(label)").roster.map(\.pubkey)) == everyone)
        }
        try await world.checkUpdateStreams()
    }

    @Test func inviteesNoWelcomeCanCarryAreRefusedNotCommitted() async throws {
        // ~2 KB rumors stop fitting once the tree holds a few members.
        let world = try await Self.create(rumorBudget: 3_000)
        let alice = try await world.state(of: "alice")
        let chat = try await world.onlyChat(of: "alice")
        let refused = alice.failedPeers.filter { $0.reason == .welcomeTooLarge }.map(\.pubkey)
        #expect(!refused.isEmpty && chat.roster.count > 1)
        #expect(chat.roster.count + refused.count == 10)
        #expect(alice.errors.contains { $0.code == .welcomeTooLarge })
        // Nobody in the member list is left without the group: every listed member joined.
        for label in Self.invitees where chat.roster.map(\.pubkey).contains(try world.key(label)) {
            #expect(try await world.chat(chat.chatID, of: label) != nil, "\(label) is listed but never joined")
        }
    }
}
