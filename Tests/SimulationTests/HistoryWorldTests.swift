import GroupCore
import NativeSwiftEngine
import Simulation
import Testing

/// The receiver's check on history packets (docs/group-core.md, "History for new members"), shown
/// both ways on one native world: bob, no admin, sends dave a forged packet holding carol's
/// message, which alice (sending no history of her own here) never sent him. With the check dave
/// refuses it; with the check switched off on dave the same packet puts carol's message in his
/// history, so the check is what stops it.
@Suite struct HistoryWorldTests {
    private func forgedHistory(daveChecks: Bool) async throws -> (AppState, ChatSummary?) {
        let world = World(configuration: WorldConfiguration(seed: 0x4453)) { context in
            NativeSwiftEngine(generator: context.generator, clock: context.clock)
        }
        for label in ["alice", "bob", "carol", "dave"] {
            var behaviour = CoreConfiguration.Behaviour()
            // alice sends no history, so that only bob's packet can bring carol's message.
            if label == "alice" { behaviour.historyForNewMembersCount = 0 }
            if label == "dave" { behaviour.checksHistorySender = daveChecks }
            try await world.addMember(label, options: MemberOptions(behaviour: behaviour))
        }
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob"), try world.key("carol")], name: "Team", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let chatID = try await world.onlyChat(of: "alice").chatID
        await world.dispatch("carol", .sendMessage(chatID: chatID, text: "before dave"))
        await world.runUntilQuiescent()
        await world.dispatch("alice", .addMembers(chatID: chatID, peers: [try world.key("dave")]))
        await world.runUntilQuiescent()
        await world.run(for: .seconds(3))
        #expect(try await world.chat(chatID, of: "dave")?.historyMessages.isEmpty == true, "alice sent history after all")
        await world.dispatch("bob", .forged(.shareHistory(chatID: chatID, member: try world.key("dave"))))
        await world.runUntilQuiescent()
        return (try await world.state(of: "dave"), try await world.chat(chatID, of: "dave"))
    }

    @Test func aNonAdminsPacketIsRefusedAndWouldOtherwiseBeShown() async throws {
        let (state, chat) = try await forgedHistory(daveChecks: true)
        #expect(state.rejections.map(\.reason).contains("history.notFromAdmin"))
        #expect(chat?.historyMessages.isEmpty == true)

        let (unchecked, shown) = try await forgedHistory(daveChecks: false)
        #expect(!unchecked.rejections.map(\.reason).contains("history.notFromAdmin"))
        #expect(shown?.historyMessages.map(\.content) == ["before dave"], "the forged packet got through unchecked")
    }
}
