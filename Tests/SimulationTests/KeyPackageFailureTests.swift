import GroupCore
import InMemoryRelay
import Nostr
import Simulation
import Testing

/// Invitees whose key packages cannot be used: each failure classified, the policy applied.
@Suite(
    .enabled(
        if: MDKWorld.isAvailable,
        "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable MDK-backed world tests"))
struct KeyPackageFailureTests {
    /// alice, bob and erin use the shared key-package relay; carol never published a key package;
    /// dave's key-package relay is down; erin's key package reaches alice corrupted.
    private func makeWorld(seed: UInt64) async throws -> (World, ShutdownHandle) {
        let driver = try await MDKWorld.launchDriver()
        let world = MDKWorld.make(
            seed: seed, driver: driver,
            relays: WorldConfiguration.standardRelays + [WorldConfiguration.RelaySpec("keypackages2", role: .keyPackage)])
        try await world.addMember("alice")
        try await world.addMember("bob")
        try await world.addMember("carol", options: MemberOptions(behaviour: .init(publishesKeyPackage: false)))
        try await world.addMember("dave", options: MemberOptions(keyPackageRelays: ["keypackages2"]))
        try await world.addMember("erin")
        await world.runUntilQuiescent()
        world.network.setRelay("keypackages2", up: false)
        world.tamper(deliveriesTo: "alice", kind: .keyPackage, author: try world.key("erin"))
        return (world, ShutdownHandle(driver: driver))
    }

    @Test func groupIsCreatedWithTheRestAndEachFailedPeerHasItsReason() async throws {
        let (world, handle) = try await makeWorld(seed: 0x2_0001)
        let invitees = try ["bob", "carol", "dave", "erin"].map { try world.key($0) }
        await world.dispatch("alice", .createGroup(peers: invitees, name: "Partial", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()

        let chat = try await world.onlyChat(of: "alice")
        #expect(Set(chat.roster.map(\.pubkey)) == [try world.key("alice"), try world.key("bob")])
        #expect(try await world.onlyChat(of: "bob").chatID == chat.chatID)
        let failed = try await world.state(of: "alice").failedPeers
        let reasons = Dictionary(uniqueKeysWithValues: failed.map { ($0.pubkey, $0.reason) })
        #expect(
            reasons == [
                try world.key("carol"): .noKeyPackage, try world.key("dave"): .relayDown, try world.key("erin"): .invalidSignature,
            ])
        #expect(failed.allSatisfy { $0.chatID == chat.chatID })
        #expect(try await world.errorCodes(of: "alice").isEmpty)
        for label in ["carol", "dave", "erin"] { #expect(try await world.state(of: label).chatList.isEmpty, "\(label)") }

        // dave's relay comes back: adding him now works.
        world.network.setRelay("keypackages2", up: true)
        await world.dispatch("alice", .addMembers(chatID: chat.chatID, peers: [try world.key("dave")]))
        await world.runUntilQuiescent()
        let expected: Set = [try world.key("alice"), try world.key("bob"), try world.key("dave")]
        for label in ["alice", "bob", "dave"] {
            let summary = try #require(try await world.chat(chat.chatID, of: label), "\(label)")
            #expect(Set(summary.roster.map(\.pubkey)) == expected, "\(label)")
            #expect(summary.epoch == 4, "\(label): epoch 1, bob's update, dave's add, dave's update")
        }
        #expect(try await world.state(of: "alice").failedPeers.count == 3, "the successful add reports nobody")
        try await world.checkUpdateStreams()
        await handle.shutdown()
    }

    @Test func allInviteesFailingCreatesNothing() async throws {
        let (world, handle) = try await makeWorld(seed: 0x2_0002)
        let invitees = try ["carol", "dave", "erin"].map { try world.key($0) }
        await world.dispatch("alice", .createGroup(peers: invitees, name: "Nobody", description: "", onPartialFailure: .proceed))
        await world.runUntilQuiescent()
        let state = try await world.state(of: "alice")
        #expect(state.chatList.isEmpty)
        #expect(state.errors.map(\.code) == [.allPeersFailed])
        #expect(Set(state.failedPeers.map(\.reason)) == [.noKeyPackage, .relayDown, .invalidSignature])
        #expect(state.failedPeers.allSatisfy { $0.chatID == nil })
        #expect(state.busy.isEmpty)

        // The abort policy refuses a partial group even when someone could join.
        let mixed = try ["bob", "carol"].map { try world.key($0) }
        await world.dispatch("alice", .createGroup(peers: mixed, name: "Strict", description: "", onPartialFailure: .abort))
        await world.runUntilQuiescent()
        #expect(try await world.state(of: "alice").chatList.isEmpty)
        #expect(try await world.errorCodes(of: "alice") == [.allPeersFailed, .partialFailureAborted])
        #expect(try await world.state(of: "bob").chatList.isEmpty, "no welcome left")
        try await world.checkUpdateStreams()
        await handle.shutdown()
    }

    /// `.ask` leaves a decision instead of a group; while its retry is looking up, answering again
    /// is `core.busy`; a settled decision is gone (`core.unknownDecision`), and `proceed` reports the
    /// failed invitees as the default policy would.
    @Test func askedDecisionsAreAnsweredOnceAndNotWhileRetrying() async throws {
        let (world, handle) = try await makeWorld(seed: 0x2_0003)
        let invitees = try ["bob", "dave"].map { try world.key($0) }
        await world.dispatch("alice", .createGroup(peers: invitees, name: "Ask", description: "", onPartialFailure: .ask))
        await world.runUntilQuiescent()
        var state = try await world.state(of: "alice")
        #expect(state.chatList.isEmpty)
        #expect(state.failedPeers.isEmpty, "nothing is reported before the user decides")
        let decision = try #require(state.pendingDecisions.first)
        #expect(state.pendingDecisions.count == 1)
        #expect(decision.action == .createGroup(name: "Ask"))
        #expect(decision.ready == [try world.key("bob")])
        #expect(decision.failed.map(\.reason) == [.relayDown])

        await world.dispatch("alice", .decide(decisionID: decision.id, choice: .retry))
        await world.dispatch("alice", .decide(decisionID: decision.id, choice: .proceed))
        state = try await world.state(of: "alice")
        #expect(state.errors.map(\.code) == [.busy], "answered while its retry is looking up")
        #expect(state.pendingDecisions.first?.retrying == true)
        await world.runUntilQuiescent()
        #expect(try await world.state(of: "alice").pendingDecisions.map(\.retrying) == [false], "dave's relay is still down")

        await world.dispatch("alice", .decide(decisionID: decision.id, choice: .proceed))
        await world.runUntilQuiescent()
        await world.dispatch("alice", .decide(decisionID: decision.id, choice: .cancel))
        state = try await world.state(of: "alice")
        #expect(state.pendingDecisions.isEmpty)
        #expect(state.errors.map(\.code) == [.busy, .unknownDecision])
        #expect(state.failedPeers.map(\.reason) == [.relayDown])
        let chat = try await world.onlyChat(of: "alice")
        #expect(Set(chat.roster.map(\.pubkey)) == [try world.key("alice"), try world.key("bob")])
        #expect(try await world.onlyChat(of: "bob").chatID == chat.chatID)
        try await world.checkUpdateStreams()
        await handle.shutdown()
    }
}
