import ConformanceTestSupport
import GroupCore
import Nostr
import Simulation
import Testing

/// Random UI actions by random members, valid or not: after every step each member's updates
/// have revs 1, 2, 3… and its `state()` is the state of its last update.
@Suite struct RandomActionPropertyTests {
    static let labels = ["alice", "bob", "carol", "dave"]

    @Test(
        .enabled(
            if: MDKWorld.isAvailable,
            "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable MDK-backed world tests"),
        arguments: [UInt64(0x5EED_0001), 0x5EED_0002, 0x5EED_0003])
    func everyUpdateAdvancesRevByOneAndStateMatchesItOnMDK(seed: UInt64) async throws {
        let driver = try await MDKWorld.launchDriver()
        try await check(MDKWorld.make(seed: seed, driver: driver), seed: seed)
        await driver.shutdown()
    }

    @Test(arguments: [UInt64(0x5EED_0011), 0x5EED_0012, 0x5EED_0013])
    func everyUpdateAdvancesRevByOneAndStateMatchesItOnTheNativeEngine(seed: UInt64) async throws {
        try await check(NativeEngineWorldTests.makeWorld(seed: seed), seed: seed)
    }

    private func check(_ world: World, seed: UInt64) async throws {
        for label in Self.labels { try await world.addMember(label) }
        await world.runUntilQuiescent()
        var generator = TestGenerator(seed: seed)
        var actions: [String] = []
        for step in 0..<40 {
            let label = Self.labels[Int(generator.next() % UInt64(Self.labels.count))]
            let action = try await randomAction(for: label, in: world, using: &generator)
            actions.append("\(label): \(action)")
            await world.dispatch(label, action)
            await world.runUntilQuiescent()
            try await world.checkUpdateStreams("step \(step) (\(actions.last ?? ""))")
        }
        // The run did something: at least one chat exists and some member saw messages or errors.
        var chats = 0
        for label in Self.labels { chats += try await world.state(of: label).chatList.count }
        #expect(chats > 0, "\(actions)")
    }

    private func randomAction(for label: String, in world: World, using generator: inout TestGenerator) async throws
        -> AppAction
    {
        let others = try Self.labels.filter { $0 != label }.map { try world.key($0) }
        let everyone = try Self.labels.map { try world.key($0) }
        let someOthers = others.filter { _ in generator.next() % 2 == 0 }
        let chats = try await world.state(of: label).chatList.map(\.chatID)
        // An unknown chat id now and then, so refusals are exercised too.
        let chatID =
            chats.isEmpty || generator.next() % 8 == 0
            ? String(repeating: "0", count: 64) : chats[Int(generator.next() % UInt64(chats.count))]
        let someone = everyone[Int(generator.next() % UInt64(everyone.count))]
        switch generator.next() % 10 {
        case 0: return .createChat(peer: others[Int(generator.next() % UInt64(others.count))])
        case 1: return .createGroup(peers: someOthers, name: "g\(generator.next() % 100)", description: "", onPartialFailure: .proceed)
        case 2: return .addMembers(chatID: chatID, peers: someOthers)
        case 3: return .removeMembers(chatID: chatID, members: [someone])
        case 4: return .rename(chatID: chatID, name: "r\(generator.next() % 100)")
        case 5: return .leave(chatID: chatID)
        case 6: return .openChat(chatID: chatID)
        case 7: return .markRead(chatID: chatID)
        default: return .sendMessage(chatID: chatID, text: "m\(generator.next() % 1000)")
        }
    }
}
