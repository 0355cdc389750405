import ConformanceTestSupport
import DeterministicScheduler
import EngineInterface
import ExternalProcessEngine
import Foundation
import GroupCore
import Nostr
import Simulation
import Testing

/// Worlds whose members run MDK 0.8.0 through the repository's driver.
enum MDKWorld {
    static var isAvailable: Bool {
        if !Peers.shouldRun {
            print("SimulationTests: no .venv with mdk-python (run ci/setup); MDK-backed world tests are skipped")
            return false
        }
        return true
    }

    /// One driver process for the whole world; every member is an instance in it.
    static func launchDriver() async throws -> DriverProcess {
        guard let python = PythonVenv.interpreter else {
            throw PythonVenv.Unavailable.noVenv(Vectors.repositoryRoot.appendingPathComponent(".venv").path)
        }
        let script = Vectors.repositoryRoot.appendingPathComponent("drivers/mdk/driver.py").path
        // The world shim (made by ci/setup): MDK reads the clock and seeds each request carries, so
        // its created_at follows the world's virtual clock however slowly the machine runs the test.
        let shim = Vectors.repositoryRoot.appendingPathComponent(".venv/lib/libworldshim.so").path
        return await DriverProcess.launch(executable: python.path, arguments: [script], environment: ["LD_PRELOAD": shim])
    }

    /// An MDK member's engine on the world's clock and its own seeded stream.
    static func engine(in driver: DriverProcess, for context: EngineContext) async throws -> any ProtocolEngine {
        try await driver.makeEngine(
            instance: context.label, encryptionKey: context.storageKey,
            world: WorldFeed(clock: context.clock, generator: context.generator))
    }

    /// A world of MDK members, each on the world's clock through the shim. Its epoch is the fixed
    /// virtual zero scenario runs use (Unix 1,700,000,000), not the wall clock: with a wall-clock
    /// start, which events share a second (MIP-03's order, history's order) changed from run to
    /// run, and a test passed or failed with the time it was started (seen under load).
    static func make(seed: UInt64, driver: DriverProcess, relays: [WorldConfiguration.RelaySpec] = WorldConfiguration.standardRelays)
        -> World
    {
        let configuration = WorldConfiguration(seed: seed, epochUnixSeconds: 1_700_000_000, relays: relays)
        return World(configuration: configuration, makeEngine: { context in try await engine(in: driver, for: context) })
    }
}

extension World {
    /// The member's current state as its core reports it.
    func state(of label: String) async throws -> AppState {
        let core = try #require(member(label)?.core)
        return await core.state()
    }

    func key(_ label: String) throws -> PublicKey {
        try #require(member(label)?.publicKey)
    }

    func chat(_ chatID: String, of label: String) async throws -> ChatSummary? {
        try await state(of: label).chatList.first { $0.chatID == chatID }
    }

    /// The only chat `label` has.
    func onlyChat(of label: String) async throws -> ChatSummary {
        let chats = try await state(of: label).chatList
        try #require(chats.count == 1, "\(label) has \(chats.count) chats")
        return chats[0]
    }

    /// Opens the chat, checks that its messages are in created_at/id order, and returns their
    /// texts. A set: MDK stamps rumors in whole wall-clock seconds, so messages sent within one
    /// second are ordered by id, not by sending order.
    func messages(in chatID: String, of label: String) async throws -> Set<String> {
        await dispatch(label, .openChat(chatID: chatID))
        let view = try #require(try await state(of: label).currentChat)
        let keys = view.messages.map { ($0.timestamp, $0.id) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "\(label): messages out of order")
        return Set(view.messages.map(\.content))
    }

    /// Error codes the member has shown so far.
    func errorCodes(of label: String) async throws -> [CoreError.Code] {
        try await state(of: label).errors.map(\.code)
    }

    /// Asserts the update stream of every member: revs 1, 2, 3… and the last update is `state()`.
    func checkUpdateStreams(_ context: String = "") async throws {
        let violations = await updateStreamViolations()
        #expect(violations.isEmpty, "\(context) \(violations.joined(separator: "; "))")
    }

    /// Trace lines of the members' cores, for ordering assertions.
    func coreNotes(of label: String) -> [String] {
        log.entries.filter { $0.category == "core" && $0.subject == label }.map(\.detail)
    }
}

/// The driver behind a world, kept only to shut it down at the end of a test.
struct ShutdownHandle {
    let driver: DriverProcess
    func shutdown() async { await driver.shutdown() }
}

extension World {
    /// The epoch of the member's only group, asked of its engine rather than its core.
    func engineEpoch(of label: String) async throws -> UInt64 {
        let engine = try #require(member(label)?.engine)
        let groups = try await engine.groups().filter { $0.state == .active }
        try #require(groups.count == 1, "\(label) has \(groups.count) active groups")
        return groups[0].epoch
    }

    /// Gift wraps addressed to `label` stored on the inbox relay.
    func giftWraps(to label: String) throws -> [Event] {
        let relay = try #require(network.relay("inbox"))
        let filter = Filter(kinds: [.giftWrap], tags: ["p": [try key(label).hex]])
        return relay.storedEvents(matching: [filter], now: network.unixSeconds)
    }
}
