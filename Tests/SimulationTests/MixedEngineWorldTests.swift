import Foundation
import GroupCore
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// Members on different engines in one world: the native engine and MDK in the same group.
@Suite(
    .enabled(
        if: MDKWorld.isAvailable,
        "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable MDK-backed world tests"))
struct MixedEngineWorldTests {
    @Test(arguments: ["alice", "bob"])
    func nativeAndMDKMembersShareAGroup(nativeMember: String) async throws {
        let driver = try await MDKWorld.launchDriver()
        let configuration = WorldConfiguration(seed: 0x6_0001, epochUnixSeconds: 1_700_000_000)
        let world = World(
            configuration: configuration,
            makeEngine: { context in
                if context.label == nativeMember {
                    return NativeSwiftEngine(generator: context.generator, clock: context.clock)
                }
                return try await MDKWorld.engine(in: driver, for: context)
            })
        for label in ["alice", "bob", "carol"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob"), try world.key("carol")], name: "Mixed", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let chatID = try await world.onlyChat(of: "alice").chatID
        for (label, text) in [("alice", "a"), ("bob", "b"), ("carol", "c")] {
            await world.dispatch(label, .sendMessage(chatID: chatID, text: text))
            await world.runUntilQuiescent()
        }
        await world.dispatch("alice", .rename(chatID: chatID, name: "Mixed renamed"))
        await world.runUntilQuiescent()
        for label in ["alice", "bob", "carol"] {
            #expect(try await world.messages(in: chatID, of: label) == ["a", "b", "c"], "\(label)")
            let chat = try #require(try await world.chat(chatID, of: label))
            #expect(chat.groupName == "Mixed renamed" && chat.epoch == 4 && chat.roster.count == 3, "\(label)")
            let state = try await world.state(of: label)
            #expect(state.errors.isEmpty && state.rejections.isEmpty, "\(label): \(state.errors) \(state.rejections)")
        }
        try await world.checkUpdateStreams()
        await driver.shutdown()
    }
}
