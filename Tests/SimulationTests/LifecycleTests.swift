import EngineInterface
import GroupCore
import Nostr
import Simulation
import Testing

/// Members running MDK over the world's relays: the whole path from UI action to MLS and back.
@Suite(.enabled(if: MDKWorld.isAvailable, "no .venv with mdk-python: run ci/setup to enable MDK-backed world tests"))
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
        #expect(Set(bobChat.members.map(\.pubkey)) == [try world.key("alice"), try world.key("bob")])
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
        #expect(bobView.messages.map(\.isMine) == [false, true])
        #expect(bobView.messages[0].senderName == "alice")
        #expect(bobView.messages[1].delivery == .sent)
        #expect(try await world.chat(bobChat.chatID, of: "bob")?.unreadCount == 0, "opening marks read")
        for label in ["alice", "bob"] {
            let errors = try await world.state(of: label).errors
            #expect(errors.isEmpty, "\(label): \(errors)")
        }
        try await world.checkUpdateStreams()
        await driver.shutdown()
    }
}
