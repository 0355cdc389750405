import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Nostr
import Synchronization
import Testing

@testable import NativeSwiftEngine

/// The engine-level receiver rules that the hostile scenarios (scenarios/hostile/) exercise, each
/// next to the honest case it must not catch. The attacks come from our engine's own hostile member.
@Suite struct HostileMemberTests {
    /// A clock the test moves forward.
    final class TestClock: Sendable {
        private let seconds = Atomic<UInt64>(MemberBench.fixedTime)
        func advance(by delta: UInt64) { seconds.add(delta, ordering: .relaxed) }
        var reader: @Sendable () -> UInt64 { { [self] in seconds.load(ordering: .relaxed) } }
    }

    static func member(_ name: String, bench: inout MemberBench, clock: TestClock) -> Member {
        let keypair = Keypair.generate(using: &bench.generator)
        let engine = NativeSwiftEngine(generator: TestGenerator(seed: bench.generator.next()), clock: clock.reader)
        return Member(name: name, keypair: keypair, engine: engine)
    }

    static func forge(_ attack: HostileAttack, by member: Member, in group: MLSGroupID, target: Member? = nil, keyPackage: Event? = nil)
        async throws -> ForgedTraffic
    {
        let hostile = try #require(member.engine as? NativeSwiftEngine)
        let h = try await member.engine.group(group).nostrGroupID
        return try await hostile.forge(
            ForgeRequest(
                attack: attack, nostrGroupID: h, target: target?.pubkey, targetKeyPackage: keyPackage, sender: member.pubkey))
    }

    @Test func aMessageWrittenAfterItsSendersRemovalIsRefusedOneWrittenBeforeIsRead() async throws {
        var bench = MemberBench(seed: 40)
        let clock = TestClock()
        let alice = Self.member("alice", bench: &bench, clock: clock)
        let bob = Self.member("bob", bench: &bench, clock: clock)
        let mallory = Self.member("mallory", bench: &bench, clock: clock)
        let group = try await bench.createGroup(by: alice, inviting: [bob, mallory], name: "R", admins: [alice])
        // Written before the removal, delivered after it: a late message, still read.
        let early = try await mallory.engine.createMessage(
            in: group, sender: mallory.pubkey, kind: .chatMessage, content: "before", tags: [])
        clock.advance(by: 5)
        try await MemberBench.commit(
            try await alice.engine.removeMembers(from: group, pubkeys: [mallory.pubkey]), by: alice, to: [bob, mallory])
        clock.advance(by: 5)
        let late = try await Self.forge(.removedMemberMessage, by: mallory, in: group)
        #expect(try await bob.engine.processMessage(late.events[0]) == .unprocessable(group, reason: "sender_removed"))
        guard case .applicationMessage(let message) = try await bob.engine.processMessage(early) else {
            Issue.record("the message written before the removal was not read")
            return
        }
        #expect(message.rumor.content == "before")
    }

    @Test func aWelcomeIntoAHeldGroupOrOntoItsHIsRefused() async throws {
        var bench = MemberBench(seed: 41)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let mallory = bench.swiftMember("mallory")
        let group = try await bench.createGroup(by: alice, inviting: [bob, mallory], name: "W", admins: [alice])
        let rename = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "renamed"))
        try await MemberBench.commit(rename, by: alice, to: [bob, mallory])
        let keyPackage = try await bench.keyPackage(of: bob)
        for attack in [HostileAttack.replayedWelcome, .lookalikeGroup] {
            let forged = try await Self.forge(attack, by: mallory, in: group, target: bob, keyPackage: keyPackage)
            let (wrapper, rumor) = try bench.deliverWelcome(forged.welcomeRumors[0], from: mallory, to: bob)
            await #expect(throws: EngineError(.invalidWelcome, ""), "\(attack)") {
                _ = try await bob.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
            }
        }
        #expect(try await bob.engine.group(group).name == "renamed")
        // The honest case next to the replay, a welcome back into a group one was removed from, is
        // scenarios/fault-recovery/readd-after-leave.yaml.
    }
}
