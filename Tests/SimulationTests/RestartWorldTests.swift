import DeterministicScheduler
import GroupCore
import NativeSwiftEngine
import Nostr
import Simulation
import Synchronization
import Testing

/// A member's app stops and starts again (World+Restart.swift): what it had is kept, what was in
/// flight is lost, and the restarted engine is made with the next start and a stream of its own.
@Suite struct RestartWorldTests {
    /// What the factory was given at each start.
    private final class Starts: Sendable {
        let entries = Mutex<[(label: String, start: Int, directory: String, firstDraw: UInt64)]>([])
    }

    private static func makeWorld(seed: UInt64, persistent: Bool = true, starts: Starts) -> World {
        var configuration = WorldConfiguration(seed: seed)
        configuration.persistent = persistent
        return World(
            configuration: configuration,
            makeEngine: { context in
                var probe = context.generator
                let draw = probe.next()
                starts.entries.withLock { $0.append((context.label, context.start, context.storageDirectory, draw)) }
                return try NativeSwiftEngine(
                    generator: context.generator, clock: context.clock,
                    stateFile: context.persistent ? context.storageDirectory + "/swift-engine.state" : nil)
            })
    }

    private func groupOfTwo(_ world: World) async throws -> String {
        for label in ["alice", "bob"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob")], name: "Pair", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let chatID = try await world.onlyChat(of: "alice").chatID
        await world.dispatch("bob", .sendMessage(chatID: chatID, text: "before"))
        await world.runUntilQuiescent()
        return chatID
    }

    @Test func restartedMemberKeepsItsChatAndLosesWhatCameWhileDown() async throws {
        let starts = Starts()
        let world = Self.makeWorld(seed: 7, starts: starts)
        let chatID = try await groupOfTwo(world)
        let before = try await world.state(of: "bob")

        world.restart("bob", down: .seconds(5))
        #expect(world.isDown("bob"))
        // bob's app is not running: this action never happens.
        await world.dispatch("bob", .sendMessage(chatID: chatID, text: "while down"))
        await world.dispatch("alice", .sendMessage(chatID: chatID, text: "for bob"))
        await world.runUntilQuiescent()
        #expect(!world.isDown("bob"))

        let entries = starts.entries.withLock { $0 }.filter { $0.label == "bob" }
        #expect(entries.map(\.start) == [0, 1])
        #expect(entries[0].directory == entries[1].directory && !entries[0].directory.isEmpty)
        #expect(entries[0].firstDraw != entries[1].firstDraw, "a restarted engine must not replay its random bytes")

        let after = try await world.state(of: "bob")
        #expect(after.rev >= before.rev)
        #expect(try await world.messages(in: chatID, of: "bob") == ["before", "for bob"] as Set)
        #expect(try await world.messages(in: chatID, of: "alice") == ["before", "for bob"] as Set)
        #expect(world.log.entries.contains { $0.detail == "down: the action is lost" })
        try await world.checkUpdateStreams()
    }

    /// The twin: with the core's persistence switched off, the same restart forgets the chat.
    @Test func withoutPersistenceTheRestartedCoreForgetsItsChat() async throws {
        let starts = Starts()
        var options = MemberOptions()
        options.behaviour.recovery.persistsAcrossRestart = false
        let world = Self.makeWorld(seed: 7, starts: starts)
        try await world.addMember("alice")
        try await world.addMember("bob", options: options)
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob")], name: "Pair", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        world.restart("bob", down: .seconds(5))
        await world.runUntilQuiescent()
        #expect(try await world.state(of: "bob").chatList.isEmpty)
    }
}
