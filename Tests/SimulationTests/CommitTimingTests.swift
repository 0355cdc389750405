import GroupCore
import InMemoryRelay
import Nostr
import Simulation
import Testing

/// MIP-02/03: a commit is merged only after a group relay accepts it, and welcomes leave only
/// after the merge.
@Suite(
    .enabled(
        if: MDKWorld.isAvailable,
        "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable MDK-backed world tests"))
struct CommitTimingTests {
    /// alice and bob in a group at epoch 2 (creation + bob's self-update); carol waiting outside.
    private func makeWorld(seed: UInt64) async throws -> (World, String, ShutdownHandle) {
        let driver = try await MDKWorld.launchDriver()
        let world = MDKWorld.make(seed: seed, driver: driver)
        for label in ["alice", "bob", "carol"] { try await world.addMember(label) }
        await world.runUntilQuiescent()
        await world.dispatch(
            "alice",
            .createGroup(
                peers: [try world.key("bob")], name: "Timing", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let chatID = try await world.onlyChat(of: "alice").chatID
        #expect(try await world.engineEpoch(of: "alice") == 2)
        return (world, chatID, ShutdownHandle(driver: driver))
    }

    @Test func withheldOKHoldsMergeAndWelcomeUntilReleased() async throws {
        let (world, chatID, handle) = try await makeWorld(seed: 0x3_0001)
        let hold = world.network.addFault(
            FaultRule(
                scope: .link(member: "alice", relay: "group"), direction: .toMember, selector: FrameSelector(verbs: ["OK"]),
                action: .hold("alice-ok")))
        await world.dispatch("alice", .addMembers(chatID: chatID, peers: [try world.key("carol")]))
        await world.run(for: .seconds(2))

        // The relay stored the commit, but alice has no OK: nothing merged, no welcome out.
        #expect(try await world.engineEpoch(of: "alice") == 2)
        #expect(try await world.chat(chatID, of: "alice")?.epoch == 2)
        #expect(try await world.state(of: "alice").busy.map(\.kind) == ["add 1"])
        #expect(try world.giftWraps(to: "carol").isEmpty)
        #expect(try await world.state(of: "carol").chatList.isEmpty)

        world.network.removeFault(hold)
        world.network.release(hold: "alice-ok")
        await world.runUntilQuiescent()

        let notes = world.coreNotes(of: "alice")
        let merged = try #require(notes.firstIndex { $0.hasPrefix("merged commit") && $0.contains("(add 1)") })
        let welcomed = try #require(notes.lastIndex { $0.hasPrefix("sent welcome") })
        #expect(merged < welcomed, "merge, then welcome")
        #expect(notes[merged].hasSuffix("epoch 3"), "\(notes[merged])")
        #expect(try world.giftWraps(to: "carol").count == 1)
        // carol joined at the epoch alice merged into (3), then her own self-update took all to 4.
        #expect(world.coreNotes(of: "carol").contains { $0.hasPrefix("joined") && $0.contains("at epoch 3") })
        for label in ["alice", "bob", "carol"] {
            #expect(try await world.engineEpoch(of: label) == 4, "\(label)")
            #expect(try await world.chat(chatID, of: label)?.roster.count == 3, "\(label)")
        }
        #expect(try await world.errorCodes(of: "alice").isEmpty)
        try await world.checkUpdateStreams()
        await handle.shutdown()
    }

    @Test func unacknowledgedCommitIsClearedAndTheActionFails() async throws {
        let (world, chatID, handle) = try await makeWorld(seed: 0x3_0002)
        let hold = world.network.addFault(
            FaultRule(
                scope: .link(member: "alice", relay: "group"), direction: .toRelay,
                selector: FrameSelector(verbs: ["EVENT"], kinds: [.groupEvent]), action: .hold("alice-commit")))
        await world.dispatch("alice", .addMembers(chatID: chatID, peers: [try world.key("carol")]))
        await world.runUntilQuiescent()

        #expect(try await world.errorCodes(of: "alice") == [.commitNotAcknowledged])
        #expect(world.coreNotes(of: "alice").contains { $0.hasPrefix("cleared commit") })
        #expect(try await world.engineEpoch(of: "alice") == 2, "cleared, not merged")
        #expect(try await world.engineEpoch(of: "bob") == 2)
        #expect(try world.giftWraps(to: "carol").isEmpty)
        #expect(try await world.state(of: "carol").chatList.isEmpty)
        #expect(try await world.state(of: "alice").busy.isEmpty)

        // The cleared engine commits again once the relay path works.
        world.network.removeFault(hold)
        await world.dispatch("alice", .addMembers(chatID: chatID, peers: [try world.key("carol")]))
        await world.runUntilQuiescent()
        for label in ["alice", "bob", "carol"] {
            #expect(try await world.engineEpoch(of: label) == 4, "\(label)")
        }
        try await world.checkUpdateStreams()
        await handle.shutdown()
    }
}
