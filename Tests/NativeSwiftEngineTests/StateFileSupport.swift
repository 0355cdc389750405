import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Nostr
import Synchronization
import Testing

/// One random stream that outlives the engines drawing from it: an engine restarted on the same
/// stream draws exactly the bytes the stopped one would have drawn next, so the restarted engine
/// can be compared byte for byte with a twin that never stopped. (In a run the world gives a
/// restarted engine a fresh stream instead; that is H2's side and changes outputs, not state.)
final class ContinuingStream: Sendable {
    private let generator: Mutex<TestGenerator>

    init(seed: UInt64) { generator = Mutex(TestGenerator(seed: seed)) }

    var handle: Handle { Handle(stream: self) }

    struct Handle: RandomNumberGenerator, Sendable {
        let stream: ContinuingStream
        mutating func next() -> UInt64 { stream.generator.withLock { $0.next() } }
    }
}

/// A directory for one test's state files, removed when the test ends.
struct StateDirectory: ~Copyable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("engine-state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

extension NativeSwiftEngine {
    /// A persisting engine on `stream` with the tests' fixed clock.
    static func persisting(at path: String, stream: ContinuingStream, now: UInt64 = MemberBench.fixedTime) throws
        -> NativeSwiftEngine
    {
        try NativeSwiftEngine(generator: stream.handle, clock: { now }, stateFile: path)
    }
}

/// The states the state-file tests start from, each made by a fixed seed, so the same recipe gives
/// the same bytes: the decoding tests damage them, and `vectors/engine-state/` pins them.
enum StateRecipe: String, CaseIterable {
    /// One key package and nothing else.
    case keyPackage = "key-package"
    /// A welcome processed and not yet accepted.
    case pendingWelcome = "pending-welcome"
    /// A small but complete state: a key package, a group with a staged commit, sent and received
    /// messages, a past epoch and a rollback point.
    case small

    func bytes() async throws -> [UInt8] {
        var bench = MemberBench(seed: 2022)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let subject: Member
        switch self {
        case .keyPackage:
            _ = try await bench.keyPackage(of: bob)
            subject = bob
        case .pendingWelcome:
            let created = try await alice.engine.createGroup(
                GroupCreation(
                    creator: alice.pubkey, keyPackages: [try await bench.keyPackage(of: bob)], name: "Invited",
                    relays: MemberBench.relays, admins: [alice.pubkey]))
            let (wrapperID, rumor) = try bench.deliverWelcome(created.welcomeRumors[0], from: alice, to: bob)
            _ = try await bob.engine.processWelcome(wrapperID: wrapperID, rumor: rumor)
            subject = bob
        case .small:
            let group = try await bench.createGroup(by: alice, inviting: [bob], name: "Small", admins: [alice])
            try await MemberBench.exchange("hi", from: bob, to: [alice], in: group)
            try await MemberBench.selfUpdate(bob, times: 1, in: group, receivers: [alice])
            _ = try await alice.engine.createKeyPackage(for: alice.pubkey, relays: MemberBench.relays, protected: false)
            _ = try await alice.engine.selfUpdate(in: group)
            subject = alice
        }
        let engine = try #require(subject.engine as? NativeSwiftEngine)
        return try await engine.stateBytes()
    }
}
