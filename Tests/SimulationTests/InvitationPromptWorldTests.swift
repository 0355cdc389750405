import GroupCore
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// Seed 001 §2 and §3 in a world of our engine: an invitee that answers its invitations itself
/// (docs/group-core.md, "Invitations the user answers"), and a link opened before joining
/// ("Prepared groups").
@Suite struct InvitationPromptWorldTests {
    static func world(asking: Set<String>, members: [String] = ["alice", "bob", "carol"]) async throws -> World {
        let world = World(configuration: WorldConfiguration(seed: 0x34_02)) { context in
            NativeSwiftEngine(generator: context.generator, clock: context.clock)
        }
        for label in members {
            var behaviour = CoreConfiguration.Behaviour()
            if asking.contains(label) { behaviour.invitations = .ask }
            try await world.addMember(label, options: MemberOptions(behaviour: behaviour))
        }
        await world.runUntilQuiescent()
        return world
    }

    static func createTeam(_ world: World) async throws {
        await world.dispatch(
            "alice",
            .createGroup(peers: [try world.key("bob"), try world.key("carol")], name: "Team", description: "", onPartialFailure: .proceed))
        await world.run(for: .seconds(10))
    }

    /// The twin of the rule: the same invitation, one invitee asking, the other joining at once.
    @Test func anAskingInviteeIsInvitedAndJoinsNothingUntilItAccepts() async throws {
        let world = try await Self.world(asking: ["bob"])
        try await Self.createTeam(world)
        let bob = try await world.state(of: "bob")
        #expect(bob.chatList.isEmpty)
        #expect(bob.invitations?.map(\.groupName) == ["Team"])
        #expect(bob.invitations?.first?.status == .invited)
        #expect(bob.invitations?.first?.memberCount == 3)
        #expect(bob.invitations?.first?.inviter == (try world.key("alice")))
        #expect(try await world.state(of: "carol").chatList.map(\.groupName) == ["Team"], "carol (automatic) joined at once")
        #expect(try await world.state(of: "carol").invitations == nil)

        await world.dispatch("bob", .acceptInvitation(welcomeID: try #require(bob.invitations?.first?.welcomeID)))
        await world.run(for: .seconds(10))
        let joined = try await world.state(of: "bob")
        #expect(joined.invitations == nil)
        #expect(joined.chatList.map(\.groupName) == ["Team"])
        #expect(try await world.member("bob")?.engine.groups().count == 1)
        try await world.checkUpdateStreams()
    }

    @Test func aDeclinedInvitationDiscardsItsWelcomeAndTheInviterKeepsAGhost() async throws {
        let world = try await Self.world(asking: ["bob"])
        try await Self.createTeam(world)
        let welcomeID = try #require(try await world.state(of: "bob").invitations?.first?.welcomeID)
        #expect(try await world.member("bob")?.engine.pendingWelcomes().count == 1)

        await world.dispatch("bob", .declineInvitation(welcomeID: welcomeID))
        await world.run(for: .seconds(10))
        let bob = try await world.state(of: "bob")
        #expect(bob.invitations == nil)
        #expect(bob.chatList.isEmpty)
        #expect(try await world.member("bob")?.engine.pendingWelcomes().isEmpty == true)
        #expect(try await world.member("bob")?.engine.groups().isEmpty == true)
        // Nothing tells alice: bob stays a member, invited, until an admin removes him.
        let team = try #require(try await world.state(of: "alice").chatList.first)
        #expect(team.members.map(\.pubkey).contains(try world.key("bob")))
        #expect(team.memberStatus[try world.key("bob")] == .invited)

        // Answering again names an invitation no longer waiting.
        await world.dispatch("bob", .acceptInvitation(welcomeID: welcomeID))
        #expect(try await world.state(of: "bob").errors.map(\.code) == [.unknownInvitation])
        try await world.checkUpdateStreams()
    }

    @Test func aPreviewAsksTheAdminAndActsOnNothing() async throws {
        let world = try await Self.world(asking: [], members: ["alice", "bob", "zoe"])
        await world.dispatch(
            "alice", .createGroup(peers: [try world.key("bob")], name: "Linked", description: "", onPartialFailure: .proceed))
        await world.run(for: .seconds(10))
        let chatID = try #require(try await world.state(of: "alice").chatList.first?.chatID)
        await world.dispatch("alice", .createGroupLink(chatID: chatID, role: .member, approval: true))
        await world.run(for: .seconds(5))
        let text = try #require(await world.member("alice")?.core.shareableLink(of: chatID))
        #expect(try GroupLinkText(parsing: text).name == "Linked")
        #expect(try GroupLinkText(parsing: text).memberCount == 2)

        await world.dispatch("zoe", .openLink(text: text))
        #expect(try await world.state(of: "zoe").preparedGroups?.map(\.status) == [.checking])
        await world.run(for: .seconds(5))
        #expect(try await world.state(of: "zoe").preparedGroups?.map(\.status) == [.needsApproval])
        // The admin queued nobody: a preview is not a request.
        #expect(try await world.state(of: "alice").chatList.first?.pendingJoins == [])
        #expect(try await world.state(of: "zoe").joinResults.isEmpty)

        let token = try #require(try await world.state(of: "zoe").preparedGroups?.first?.token)
        await world.dispatch("zoe", .joinPrepared(token: token))
        await world.run(for: .seconds(5))
        #expect(try await world.state(of: "zoe").preparedGroups == nil)
        #expect(try await world.state(of: "zoe").joinResults.map(\.status) == [.pending])
        #expect(try await world.state(of: "alice").chatList.first?.pendingJoins == [try world.key("zoe")])
        try await world.checkUpdateStreams()
    }
}
