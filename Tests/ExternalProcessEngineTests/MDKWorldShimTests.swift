import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import Foundation
import Nostr
import Synchronization
import Testing

/// MDK on the world's clock and seeded randomness (drivers/mdk/worldshim, docs/driver-protocol.md
/// "Determinism"): with the shim, the same seeds give the same bytes in two driver processes, whatever
/// else the process does in between; without it, the driver refuses to pretend.
@Suite(.enabled(if: MDKDriver.isAvailable && MDKDriver.shim != nil, "no .venv with mdk-python and the world shim: run ci/setup"))
struct MDKWorldShimTests {
    static let start: UInt64 = 1_795_000_100

    /// The virtual clock a test moves by hand.
    final class Clock: Sendable {
        private let seconds = Atomic<UInt64>(MDKWorldShimTests.start)
        func advance(_ by: UInt64) { seconds.add(by, ordering: .relaxed) }
        var reader: @Sendable () -> UInt64 { { [self] in seconds.load(ordering: .relaxed) } }
    }

    /// Everything MDK produced in one scripted exchange, as text; `created_at` values are checked separately.
    struct Transcript: Equatable {
        var lines: [String] = []
        mutating func note(_ label: String, _ value: String) { lines.append("\(label): \(value)") }
    }

    /// Alice creates a group with bob, carol and dave, bob joins, alice and bob send a message each, alice
    /// self-updates; returns the bytes. With
    /// `noise`, a third instance works between every step, so its calls interleave with theirs. Instance
    /// names get `prefix`, so that one driver can host the exchange several times.
    func scriptedExchange(on driver: DriverProcess, prefix: String = "", noise: Bool) async throws -> Transcript {
        let clock = Clock()
        var bench = Bench(driver: driver, seed: 0x5EED)
        func member(_ name: String, keys: inout TestGenerator) async throws -> Member {
            let keypair = Keypair.generate(using: &keys)
            let world = WorldFeed(
                clock: clock.reader, generator: TestGenerator(seed: UInt64(name.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })))
            let engine = try await driver.makeEngine(instance: prefix + name, encryptionKey: keys.bytes(32), world: world)
            return Member(name: name, keypair: keypair, engine: engine)
        }
        // Eve has keys and a bench of her own, so that only her engine calls differ between the two runs.
        var eveBench = MemberBench(seed: 99, keyPackageTime: Self.start)
        let eve: Member? = noise ? try await member("eve", keys: &eveBench.generator) : nil
        func disturb() async throws {
            if let eve { _ = try await eveBench.keyPackage(of: eve) }
        }

        var transcript = Transcript()
        let alice = try await member("alice", keys: &bench.generator)
        try await disturb()
        let bob = try await member("bob", keys: &bench.generator)
        // Carol and dave are invited but never join: with four leaves, alice's self-update encrypts its
        // path to several members, work MDK spreads over a thread pool (docs/driver-protocol.md).
        let carol = try await member("carol", keys: &bench.generator)
        let dave = try await member("dave", keys: &bench.generator)
        clock.advance(7)
        var keyPackages: [Event] = []
        for invitee in [bob, carol, dave] {
            keyPackages.append(try await bench.keyPackage(of: invitee))
            transcript.note("\(invitee.name) key package", keyPackages.last?.content ?? "")
        }
        try await disturb()
        clock.advance(3)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: keyPackages, name: "Shim", description: "", relays: Bench.relays, admins: [alice.pubkey]
            ))
        let group = created.group.mlsGroupID
        transcript.note("group", group.hex)
        for rumor in created.welcomeRumors {
            transcript.note("welcome", "\(rumor.id.hex) \(rumor.content)")
            #expect(rumor.createdAt == Self.start + 10, "welcome rumors are stamped with the world's clock")
        }
        try await disturb()
        clock.advance(5)
        _ = try await bench.join(bob, rumor: created.welcomeRumors[0], from: alice, groupName: "Shim")
        for (sender, receiver) in [(alice, bob), (bob, alice)] {
            try await disturb()
            clock.advance(2)
            let event = try await sender.engine.createMessage(in: group, sender: sender.pubkey, kind: .chatMessage, content: "hi", tags: [])
            transcript.note("message from \(sender.name)", "\(event.id.hex) \(event.pubkey.hex) \(event.content)")
            #expect(event.createdAt == clock.reader())
            guard case .applicationMessage(let message) = try await receiver.engine.processMessage(event) else {
                Issue.record("\(receiver.name) did not accept \(sender.name)'s message")
                continue
            }
            #expect(message.rumor.createdAt == clock.reader(), "the inner rumor is stamped with the world's clock")
            transcript.note("rumor", message.rumor.id.hex)
        }
        clock.advance(60)
        let update = try await alice.engine.selfUpdate(in: group)
        transcript.note("self-update", "\(update.event.id.hex) \(update.event.content)")
        #expect(update.event.createdAt == clock.reader())
        return transcript
    }

    /// Process A runs the exchange once; process B runs it, then runs it again with another instance
    /// interleaving. All three give the same bytes: nothing but the world's clock and the members' seeds
    /// reaches MDK's output — not the other instances, not whether the exchange is the process's first.
    @Test func sameSeedsGiveSameBytesInTwoProcessesWhateverElseRuns() async throws {
        let first = try await MDKDriver.launch(withShim: true)
        try await first.requireWorld()
        let quiet = try await scriptedExchange(on: first, noise: false)
        await first.shutdown()
        let second = try await MDKDriver.launch(withShim: true)
        let again = try await scriptedExchange(on: second, prefix: "1-", noise: false)
        let busy = try await scriptedExchange(on: second, prefix: "2-", noise: true)
        await second.shutdown()
        #expect(quiet.lines.count == 12)
        #expect(quiet == again, "two driver processes gave different bytes for the same requests")
        #expect(quiet == busy, "MDK's bytes depend on something other than the world's clock and the member's seeds")
    }

    /// The twin: different member seeds give different bytes (so the equality above is not vacuous).
    @Test func differentSeedsGiveDifferentKeyPackages() async throws {
        let driver = try await MDKDriver.launch(withShim: true)
        let clock = Clock()
        var contents: [String] = []
        var keys = TestGenerator(seed: 3)
        for seed in [UInt64(1), 2] {
            let engine = try await driver.makeEngine(
                instance: "m\(seed)", encryptionKey: [UInt8](repeating: 1, count: 32),
                world: WorldFeed(clock: clock.reader, generator: TestGenerator(seed: seed)))
            contents.append(
                try await engine.createKeyPackage(for: Keypair.generate(using: &keys).publicKey, relays: Bench.relays, protected: false)
                    .content)
        }
        #expect(contents[0] != contents[1])
        await driver.shutdown()
    }

    /// Without the shim the driver says so in `hello`, and a request that asks for the world's clock is
    /// refused instead of running on the wall clock.
    @Test func withoutTheShimTheDriverRefusesLoudly() async throws {
        let driver = try await MDKDriver.launch(withShim: false)
        await #expect(throws: EngineError(.worldUnavailable, "")) { try await driver.requireWorld() }
        let world = WorldFeed(clock: { Self.start }, generator: TestGenerator(seed: 1))
        do {
            _ = try await driver.makeEngine(instance: "alice", encryptionKey: [UInt8](repeating: 1, count: 32), world: world)
            Issue.record("a driver without the shim accepted a request on the world's clock")
        } catch {
            #expect(error.code == .worldUnavailable)
            #expect(error.reason.contains("wall clock"), "\(error.reason)")
        }
        await driver.shutdown()
    }

    /// With the shim, a request without `world` is refused (it would run on whatever instant the last one left).
    @Test func withTheShimARequestWithoutWorldIsRefused() async throws {
        let driver = try await MDKDriver.launch(withShim: true)
        await #expect(throws: EngineError(.badRequest, "")) {
            _ = try await driver.makeEngine(instance: "alice", encryptionKey: [UInt8](repeating: 1, count: 32))
        }
        await driver.shutdown()
    }
}
