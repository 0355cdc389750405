import ConformanceTestSupport
import EngineInterface
import GroupCore
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// The app core remembers at most `retainedEventIDs` handled event ids (GroupCore
/// Relays/SeenEvents.swift). An event whose id it has forgotten, handed to it again, is not a
/// short cut any more: it goes to the engine, whose own checks must refuse it. Shown in a world of
/// GroupCores on our engine, bob's core remembering 8 ids: alice's message, replayed as it was
/// after ten more, is refused (the engine's memory of wrapper ids, or with that lowered too, the
/// MLS rule that a generation's key is used once) and shown once.
@Suite struct SeenEventRetentionTests {
    /// Bob's rejections of the replayed message and how often it is shown to him.
    /// `prunedByEngine`: the message's id is below the 8 largest ids of alice's ten later
    /// messages, so an engine remembering 8 wrapper ids (the smallest going first) forgot it too.
    static func replayPastTheCoreCap(engineRetains: Int?, seed: UInt64) async throws -> (
        reasons: [String], shown: Int, prunedByEngine: Bool
    ) {
        let world = World(
            configuration: WorldConfiguration(seed: seed),
            makeEngine: { context in
                NativeSwiftEngine(generator: context.generator, clock: context.clock, retainedEventIDs: context.retainedEventIDs)
            })
        try await world.addMember("alice")
        var options = MemberOptions()
        options.behaviour.retainedEventIDs = 8
        options.retainedEventIDs = engineRetains
        try await world.addMember("bob", options: options)
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice", .createGroup(peers: [try world.key("bob")], name: "Team", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let chatID = try await world.onlyChat(of: "alice").chatID
        let before = world.publishedEvents(kind: .groupEvent, by: "alice").count
        await world.dispatch("alice", .sendMessage(chatID: chatID, text: "first"))
        await world.runUntilQuiescent()
        let first = try #require(world.publishedEvents(kind: .groupEvent, by: "alice").dropFirst(before).first)
        for n in 0..<10 {
            await world.dispatch("alice", .sendMessage(chatID: chatID, text: "more \(n)"))
            await world.runUntilQuiescent()
        }
        let later = world.publishedEvents(kind: .groupEvent, by: "alice").dropFirst(before + 1).map(\.id.hex).sorted(by: >)
        let prunedByEngine = later.count >= 8 && first.id.hex < later[7]
        world.inject(first, relay: "group", to: "bob")
        await world.runUntilQuiescent()
        let state = try await world.state(of: "bob")
        let reasons = state.rejections.filter { $0.eventID == first.id.hex }.map { "\($0.reason): \($0.detail)" }
        await world.dispatch("bob", .openChat(chatID: chatID))
        let view = try #require(try await world.state(of: "bob").currentChat)
        let shown = view.messages.filter { $0.content == "first" }.count
        return (reasons, shown, prunedByEngine)
    }

    @Test func aReplayTheCoreForgotIsRefusedByTheEngine() async throws {
        let remembered = try await Self.replayPastTheCoreCap(engineRetains: nil, seed: 0x5EE1)
        #expect(remembered.shown == 1)
        #expect(remembered.reasons == ["unprocessable: duplicate"], "the engine still remembers the wrapper id")
        // The engine's memory lowered to its floor as well, on the first seed whose message id
        // the engine then forgets: the MLS state alone refuses the copy.
        var seed: UInt64 = 0x5EE2
        var forgotten = try await Self.replayPastTheCoreCap(engineRetains: 8, seed: seed)
        while !forgotten.prunedByEngine, seed < 0x5EF2 {
            seed += 1
            forgotten = try await Self.replayPastTheCoreCap(engineRetains: 8, seed: seed)
        }
        try #require(forgotten.prunedByEngine)
        #expect(forgotten.shown == 1)
        #expect(forgotten.reasons == ["unprocessable: mls.keyConsumed"], "a generation's key is used once")
    }
}
