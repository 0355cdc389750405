import GroupCore
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// Channels in a world of native engines (deterministic): what no scenario step can do, a
/// subscriber bypassing its own core to post into a relay's fan-out, must be dropped by the relay
/// and ignored by the other subscriber.
@Suite struct ChannelWorldTests {
    @Test func postsSmuggledIntoAFanOutAreDroppedByTheRelayAndIgnoredBySubscribers() async throws {
        let world = NativeEngineWorldTests.makeWorld(seed: 0x8_0001)
        try await world.addMember("alice")
        try await world.addMember("relay", options: MemberOptions(behaviour: .init(chatRelay: .honest)))
        try await world.addMember("s1")
        try await world.addMember("s2")
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createChannel(
                relays: [try world.key("relay")], name: "News", description: "", welcomeMessage: ""))
        await world.runUntilQuiescent()
        let link = try #require(try await world.state(of: "alice").channels.first?.link)
        await world.dispatch("s1", .joinChannel(link))
        await world.dispatch("s2", .joinChannel(link))
        await world.runUntilQuiescent()
        #expect(try await world.state(of: "alice").channels.first?.relays.first?.subscribers == 2)

        // s1's engine writes into the fan-out directly, as a modified client would.
        let s1 = try #require(world.member("s1"))
        let fanOut = try #require(try await s1.engine.groups().first { $0.description.contains(link.channelID) })
        let smuggled = try await s1.engine.createMessage(
            in: fanOut.mlsGroupID, sender: s1.publicKey, kind: .channelBroadcast, content: "not a signed event",
            tags: [["h", link.channelID]])
        world.network.send(ClientMessage.event(smuggled).json(), from: "s1", to: "group")
        await world.runUntilQuiescent()

        #expect(world.coreNotes(of: "relay").contains { $0.hasPrefix("dropped a post by") })
        #expect(!world.coreNotes(of: "relay").contains { $0.hasPrefix("forwarded") })
        let s2 = try #require(try await world.state(of: "s2").channels.first)
        #expect(s2.messages.isEmpty)
        #expect(s2.rejectedBroadcasts == ["channel.notFromRelay"])
        // A muted channel shows broadcasts but raises no notification intent.
        await world.dispatch("s2", .mute(chatID: link.channelID))
        await world.dispatch("alice", .broadcast(channelID: link.channelID, text: "quietly"))
        await world.runUntilQuiescent()
        #expect(try await world.state(of: "s2").channels.first?.messages.map(\.content) == ["quietly"])
        #expect(try await world.state(of: "s2").notifications.isEmpty)
        #expect(try await world.state(of: "s1").notifications.map(\.title) == ["News"])
        // And a subscriber's own core refuses to post at all.
        await world.dispatch("s2", .broadcast(channelID: link.channelID, text: "hello?"))
        #expect(try await world.errorCodes(of: "s2") == [.subscriberCannotPost])
        try await world.checkUpdateStreams()
    }

    /// A relay back from an outage reads its inbox newest first by the NIP-59 randomised
    /// created_at, so a subscriber's join request can come before the owner's welcome. Over a range
    /// of seeds both orders occur; in every one the relay ends up serving the subscriber.
    @Test func joinRequestsReadBeforeTheWelcomeAreKeptUntilTheRelayJoins() async throws {
        var earlySeeds: [UInt64] = []
        for seed: UInt64 in 0x8_0100..<0x8_0108 {
            let world = NativeEngineWorldTests.makeWorld(seed: seed)
            try await world.addMember("alice")
            for relay in ["r1", "r2"] {
                try await world.addMember(relay, options: MemberOptions(behaviour: .init(chatRelay: .honest)))
            }
            try await world.addMember("s1")
            await world.runUntilQuiescent()
            _ = world.network.partition("r2")
            await world.dispatch(
                "alice",
                .createChannel(
                    relays: [try world.key("r1"), try world.key("r2")], name: "News", description: "", welcomeMessage: ""))
            await world.runUntilQuiescent()
            let link = try #require(try await world.state(of: "alice").channels.first?.link, "seed \(seed)")
            await world.dispatch("s1", .joinChannel(link))
            await world.runUntilQuiescent()
            world.network.heal("r2")
            await world.runUntilQuiescent()
            if world.coreNotes(of: "r2").contains(where: { $0.hasSuffix("a channel we do not serve (yet)") }) { earlySeeds.append(seed) }
            let channel = try #require(try await world.state(of: "s1").channels.first)
            #expect(channel.connectedSummary == "2/2 relays connected", "seed \(seed)")
            let owner = try #require(try await world.state(of: "alice").channels.first)
            #expect(owner.relays.map(\.subscribers) == [1, 1], "seed \(seed)")
        }
        #expect(!earlySeeds.isEmpty, "no seed in the range read a join request before the welcome; widen it")
    }
}
