import DeterministicScheduler
import GroupCore
import NativeSwiftEngine
import Nostr
import Simulation
import Testing

/// The same world with the native Swift engine, which draws only from the world's seed and clock:
/// whole group lifecycles replay byte for byte.
@Suite struct NativeEngineWorldTests {
    /// A world whose members all run the native engine on the world's streams and clock.
    static func makeWorld(seed: UInt64) -> World {
        World(
            configuration: WorldConfiguration(seed: seed),
            makeEngine: { context in
                NativeSwiftEngine(generator: context.generator, clock: context.clock)
            })
    }

    private func lifecycle(seed: UInt64) async throws -> RunRecord {
        let world = Self.makeWorld(seed: seed)
        world.network.jitter = .milliseconds(10)
        for label in ["alice", "bob", "carol", "dave"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob"), try world.key("carol")], name: "Native", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let chatID = try await world.onlyChat(of: "alice").chatID
        await world.dispatch("bob", .sendMessage(chatID: chatID, text: "from bob"))
        await world.runUntilQuiescent()
        await world.dispatch("alice", .addMembers(chatID: chatID, peers: [try world.key("dave")]))
        await world.runUntilQuiescent()
        await world.dispatch("dave", .sendMessage(chatID: chatID, text: "from dave"))
        await world.runUntilQuiescent()
        await world.dispatch("alice", .removeMembers(chatID: chatID, members: [try world.key("carol")]))
        await world.runUntilQuiescent()
        await world.dispatch("alice", .rename(chatID: chatID, name: "Native renamed"))
        await world.runUntilQuiescent()

        let members = Set(try ["alice", "bob", "dave"].map { try world.key($0) })
        for label in ["alice", "bob", "dave"] {
            let chat = try #require(try await world.chat(chatID, of: label), "\(label)")
            #expect(Set(chat.roster.map(\.pubkey)) == members, "\(label)")
            #expect(chat.groupName == "Native renamed" && !chat.isRemoved, "\(label)")
            #expect(try await world.state(of: label).errors.isEmpty, "\(label)")
        }
        #expect(try await world.messages(in: chatID, of: "bob") == ["from bob", "from dave"])
        #expect(try await world.chat(chatID, of: "carol")?.isRemoved == true)
        try await world.checkUpdateStreams()

        return await world.runRecord()
    }

    @Test func groupLifecycleReplaysByteForByte() async throws {
        let first = try await lifecycle(seed: 0x4_0001)
        let second = try await lifecycle(seed: 0x4_0001)
        #expect(first == second, "\(String(describing: first.log.firstDivergence(from: second.log)))")
        let other = try await lifecycle(seed: 0x4_0002)
        #expect(other.fingerprint != first.fingerprint)
    }
}
