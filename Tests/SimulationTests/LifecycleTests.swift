import EngineInterface
import GroupCore
import Nostr
import Simulation
import Testing

/// Members running MDK over the world's relays: the whole path from UI action to MLS and back.
@Suite(
    .enabled(
        if: MDKWorld.isAvailable,
        "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable MDK-backed world tests"))
struct LifecycleTests {
    @Test func oneToOneChatCarriesMessagesBothWays() async throws {
        let driver = try await MDKWorld.launchDriver()
        let world = MDKWorld.make(seed: 0x1_0001, driver: driver)
        try await world.addMember("alice")
        try await world.addMember("bob")
        await world.runUntilQuiescent()

        await world.dispatch("alice", .createChat(peer: try world.key("bob")))
        await world.runUntilQuiescent()
        let aliceChat = try await world.onlyChat(of: "alice")
        let bobChat = try await world.onlyChat(of: "bob")
        #expect(aliceChat.chatID == bobChat.chatID)
        #expect(!aliceChat.isGroup, "two members and the default name make a 1:1 chat")
        #expect(Set(bobChat.roster.map(\.pubkey)) == [try world.key("alice"), try world.key("bob")])
        #expect(bobChat.members.first { $0.pubkey == (try? world.key("alice")) }?.name == "alice", "names come from kind 0")
        // bob self-updated after joining: both moved from epoch 1 to 2, nobody ahead.
        #expect(aliceChat.epoch == 2 && bobChat.epoch == 2)

        await world.dispatch("alice", .sendMessage(chatID: aliceChat.chatID, text: "hi bob"))
        await world.runUntilQuiescent()
        #expect(try await world.chat(bobChat.chatID, of: "bob")?.unreadCount == 1)
        await world.dispatch("bob", .sendMessage(chatID: bobChat.chatID, text: "hi alice"))
        await world.runUntilQuiescent()

        #expect(try await world.messages(in: aliceChat.chatID, of: "alice") == ["hi bob", "hi alice"])
        #expect(try await world.messages(in: bobChat.chatID, of: "bob") == ["hi bob", "hi alice"])
        let bobView = try #require(try await world.state(of: "bob").currentChat)
        let fromAlice = try #require(bobView.messages.first { $0.content == "hi bob" })
        let fromBob = try #require(bobView.messages.first { $0.content == "hi alice" })
        #expect(!fromAlice.isMine && fromAlice.senderName == "alice" && fromAlice.delivery == .received)
        #expect(fromBob.isMine && fromBob.delivery == .sent)
        #expect(try await world.chat(bobChat.chatID, of: "bob")?.unreadCount == 0, "opening marks read")
        for label in ["alice", "bob"] {
            let errors = try await world.state(of: label).errors
            #expect(errors.isEmpty, "\(label): \(errors)")
        }

        // A name other than the 1:1 default makes the two-member chat a group.
        await world.dispatch("alice", .rename(chatID: aliceChat.chatID, name: "Pair"))
        await world.runUntilQuiescent()
        for label in ["alice", "bob"] {
            let chat = try await world.onlyChat(of: label)
            #expect(chat.isGroup && chat.groupName == "Pair" && chat.epoch == 3, "\(label)")
        }
        try await world.checkUpdateStreams()
        await driver.shutdown()
    }

    @Test func fourMemberGroupThroughAddRemoveRenameAndLeave() async throws {
        let driver = try await MDKWorld.launchDriver()
        let world = MDKWorld.make(seed: 0x1_0004, driver: driver)
        for label in ["alice", "bob", "carol", "dave", "erin"] { try await world.addMember(label) }
        await world.runUntilQuiescent()

        // Create with bob and carol; both join, self-update in turn, and agree with alice.
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob"), try world.key("carol")], name: "Team", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let chatID = try await world.onlyChat(of: "alice").chatID
        try await expectAgreement(world, chatID, members: ["alice", "bob", "carol"], name: "Team", epoch: 3)
        #expect(try await world.onlyChat(of: "bob").isGroup)

        // Messages both ways.
        await world.dispatch("alice", .sendMessage(chatID: chatID, text: "one"))
        await world.runUntilQuiescent()
        await world.dispatch("carol", .sendMessage(chatID: chatID, text: "two"))
        await world.runUntilQuiescent()
        for label in ["alice", "bob", "carol"] {
            #expect(try await world.messages(in: chatID, of: label) == ["one", "two"], "\(label)")
        }

        // Add dave, who then talks to everyone.
        await world.dispatch("alice", .addMembers(chatID: chatID, peers: [try world.key("dave")]))
        await world.runUntilQuiescent()
        try await expectAgreement(world, chatID, members: ["alice", "bob", "carol", "dave"], name: "Team", epoch: 5)
        await world.dispatch("dave", .sendMessage(chatID: chatID, text: "three"))
        await world.runUntilQuiescent()
        #expect(try await world.messages(in: chatID, of: "bob") == ["one", "two", "three"])

        // Only admins change the group; an admin leaves only after stepping down (MDK refuses a
        // leaving admin), and alice, the creator and last owner, may not leave at all.
        await world.dispatch("bob", .rename(chatID: chatID, name: "Mine"))
        await world.dispatch("alice", .leave(chatID: chatID))
        #expect(try await world.errorCodes(of: "bob") == [.notAdmin])
        #expect(try await world.errorCodes(of: "alice") == [CoreError.Code(PermissionCheck.lastOwner.reason)])

        // Remove dave: he keeps his history, cannot send, and does not read what follows.
        await world.dispatch("alice", .removeMembers(chatID: chatID, members: [try world.key("dave")]))
        await world.runUntilQuiescent()
        try await expectAgreement(world, chatID, members: ["alice", "bob", "carol"], name: "Team", epoch: 6)
        #expect(try await world.chat(chatID, of: "dave")?.isRemoved == true)
        await world.dispatch("dave", .sendMessage(chatID: chatID, text: "still here?"))
        #expect(try await world.errorCodes(of: "dave") == [.chatRemoved])
        await world.dispatch("alice", .sendMessage(chatID: chatID, text: "after dave"))
        await world.runUntilQuiescent()
        // History for new members is on by default: alice sent dave the messages before his join.
        #expect(try await world.messages(in: chatID, of: "dave") == ["one", "two", "three"], "history, then his own")
        // As a set: a chat lists its messages by (created_at, id), and "one" and "two" share a
        // second on some clocks, where their ids decide (the order itself is checked by messages(in:)).
        #expect(Set(try await world.chat(chatID, of: "dave")?.historyMessages.map(\.content) ?? []) == ["one", "two"])
        #expect(try await world.messages(in: chatID, of: "carol") == ["one", "two", "three", "after dave"])
        // Before: the group's stored history from before his join (older epochs) was undecryptable.
        // After: MDK refuses to use a group it evicted us from.
        let daveRejections = try await world.state(of: "dave").rejections.map(\.reason)
        #expect(daveRejections.dropLast(1).allSatisfy { $0 == "undecryptable" }, "\(daveRejections)")
        #expect(daveRejections.last == "engine_error", "\(daveRejections)")

        // Rename.
        await world.dispatch("alice", .rename(chatID: chatID, name: "Team renamed"))
        await world.runUntilQuiescent()
        try await expectAgreement(world, chatID, members: ["alice", "bob", "carol"], name: "Team renamed", epoch: 7)

        // Non-admin leave: carol proposes, alice (the only admin) commits, carol is out.
        await world.dispatch("carol", .leave(chatID: chatID))
        await world.runUntilQuiescent()
        try await expectAgreement(world, chatID, members: ["alice", "bob"], name: "Team renamed", epoch: 8)
        #expect(try await world.chat(chatID, of: "carol")?.isRemoved == true)
        await world.dispatch("bob", .sendMessage(chatID: chatID, text: "just us"))
        await world.runUntilQuiescent()
        #expect(try await world.messages(in: chatID, of: "alice").contains("just us"))
        #expect(!(try await world.messages(in: chatID, of: "carol").contains("just us")))

        try await world.checkUpdateStreams()
        await driver.shutdown()
    }

    /// A message written while the group relay is down waits in the outbox (pending, not failed)
    /// and goes out when the relay is reachable again; subscriptions come back too.
    @Test func groupRelayOutageQueuesSendsAndSubscriptionsComeBack() async throws {
        let driver = try await MDKWorld.launchDriver()
        let world = MDKWorld.make(seed: 0x1_0005, driver: driver)
        try await world.addMember("alice")
        try await world.addMember("bob")
        await world.runUntilQuiescent()
        await world.dispatch("alice", .createChat(peer: try world.key("bob")))
        await world.runUntilQuiescent()
        let chatID = try await world.onlyChat(of: "alice").chatID

        world.network.setRelay("group", up: false)
        await world.run(for: .milliseconds(500))
        await world.dispatch("alice", .sendMessage(chatID: chatID, text: "into the void"))
        await world.run(for: .milliseconds(1_000))
        await world.dispatch("alice", .openChat(chatID: chatID))
        let queued = try #require(try await world.state(of: "alice").currentChat?.messages.first)
        #expect(queued.content == "into the void" && queued.delivery == .pending)
        world.network.setRelay("group", up: true)
        await world.runUntilQuiescent()
        let delivered = try #require(try await world.state(of: "alice").currentChat?.messages.first)
        #expect(delivered.content == "into the void" && delivered.delivery == .sent)

        await world.dispatch("alice", .sendMessage(chatID: chatID, text: "back"))
        await world.runUntilQuiescent()
        #expect(try await world.messages(in: chatID, of: "bob") == ["into the void", "back"], "bob resubscribed after the outage")
        #expect(world.coreNotes(of: "alice").contains { $0.hasPrefix("sending queued message") })
        #expect(world.coreNotes(of: "bob").contains { $0.hasPrefix("resubscribing") })
        try await world.checkUpdateStreams()
        await driver.shutdown()
    }

    /// Every listed member sees the same members, name and epoch, and is still in the chat.
    private func expectAgreement(_ world: World, _ chatID: String, members: [String], name: String, epoch: UInt64)
        async throws
    {
        let keys = Set(try members.map { try world.key($0) })
        for label in members {
            let chat = try #require(try await world.chat(chatID, of: label), "\(label) has no chat \(chatID)")
            #expect(Set(chat.roster.map(\.pubkey)) == keys, "\(label) members")
            #expect(chat.groupName == name, "\(label) name")
            #expect(chat.epoch == epoch, "\(label) epoch")
            #expect(!chat.isRemoved, "\(label) removed")
            let errors = try await world.state(of: label).errors
            #expect(errors.isEmpty || label == "alice" || label == "bob", "\(label): \(errors)")
        }
    }
}
