import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import MLS
import Marmot
import Nostr
import TLSCodec
import Testing

@testable import NativeSwiftEngine

/// Issue 30, N1: the content of the last commit, republished in a new kind-445 under a throwaway
/// key and an earlier created_at, is the commit every member already applied. It must leave every
/// member's group state, secret tree included, exactly as it was: with the rule switched off, the
/// receivers roll back and re-apply it, their secret tree starts again at generation 0, and an
/// application message of the epoch, republished the same way, is read a second time.
@Suite struct ReplayedCommitTests {
    struct Room {
        var bench: MemberBench
        let alice: Member, bob: Member, carol: Member, mallory: Member
        let group: MLSGroupID
        /// alice's message of the epoch her rename made, read by everyone.
        let message: Event

        init(seed: UInt64) async throws {
            let clock = HostileMemberTests.TestClock()
            bench = MemberBench(seed: seed)
            alice = HostileMemberTests.member("alice", bench: &bench, clock: clock)
            bob = HostileMemberTests.member("bob", bench: &bench, clock: clock)
            carol = HostileMemberTests.member("carol", bench: &bench, clock: clock)
            mallory = HostileMemberTests.member("mallory", bench: &bench, clock: clock)
            group = try await bench.createGroup(by: alice, inviting: [bob, carol, mallory], name: "R", admins: [alice])
            clock.advance(by: 5)
            let rename = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "renamed"))
            try await MemberBench.commit(rename, by: alice, to: [bob, carol, mallory])
            clock.advance(by: 5)
            message = try await alice.engine.createMessage(in: group, sender: alice.pubkey, kind: .chatMessage, content: "once", tags: [])
            for member in [bob, carol, mallory] {
                guard case .applicationMessage = try await member.engine.processMessage(message) else {
                    throw EngineError(.internal, "\(member.name) did not read alice's message")
                }
            }
        }

        var everyone: [Member] { [alice, bob, carol, mallory] }

        /// A member's whole MLS state as our state file writes it (tree, key schedule, secret tree).
        func state(of member: Member) async throws -> [UInt8] {
            let engine = try #require(member.engine as? NativeSwiftEngine)
            let mls = try #require(await engine.groups[group]?.mls)
            var writer = TLSWriter()
            mls.encodeState(to: &writer)
            return writer.bytes
        }

        /// `event`'s content and tags under a fresh key, dated `shift` seconds from it.
        mutating func republished(_ event: Event, shift: Int64) throws -> Event {
            let oneTime = Keypair.generate(using: &bench.generator)
            let createdAt = shift < 0 ? event.createdAt - UInt64(-shift) : event.createdAt + UInt64(shift)
            return try UnsignedEvent(
                pubkey: oneTime.publicKey, createdAt: createdAt, kind: event.kind, tags: event.tags, content: event.content
            )
            .signed(with: oneTime, using: &bench.generator)
        }
    }

    @Test(arguments: [HostileAttack.replayedCommit, .replayedCommitLater])
    func aReplayedLastCommitLeavesEverySecretTreeUntouched(attack: HostileAttack) async throws {
        var room = try await Room(seed: attack == .replayedCommit ? 110 : 111)
        var before: [[UInt8]] = []
        for member in room.everyone { before.append(try await room.state(of: member)) }
        let replay = try await HostileMemberTests.forge(attack, by: room.mallory, in: room.group).events[0]
        for member in room.everyone {
            let result = try await member.engine.processMessage(replay)
            guard case .commit = result else { continue }
            Issue.record("\(member.name) applied the replayed commit: \(result)")
        }
        for (member, state) in zip(room.everyone, before) {
            #expect(try await room.state(of: member) == state, "\(member.name)'s group state moved")
        }
        let bob = try #require(room.bob.engine as? NativeSwiftEngine)
        #expect(await bob.groups[room.group]?.rollback?.rival == nil, "the replay was kept as a rival branch")
        // alice's message, republished the same way: its generation is spent at every reader.
        let again = try room.republished(room.message, shift: 0)
        for member in [room.bob, room.carol] {
            let result = try await member.engine.processMessage(again)
            if case .applicationMessage = result { Issue.record("\(member.name) read alice's message twice") }
        }
        // And the group goes on: a message of the epoch after the replay reaches everyone.
        try await MemberBench.exchange("after", from: room.bob, to: [room.alice, room.carol, room.mallory], in: room.group)
    }

    /// The twin: with the rule off, the earlier-dated replay wins MIP-03's order, the receivers roll
    /// back and re-apply the same commit, and their secret tree is rebuilt: the old message reads again.
    @Test func withTheRuleOffTheReplayRebuildsTheSecretTree() async throws {
        var room = try await Room(seed: 112)
        let before = try await room.state(of: room.bob)
        let replay = try await HostileMemberTests.forge(.replayedCommit, by: room.mallory, in: room.group).events[0]
        let bob = room.bob
        let result = try await MarmotReceiverCheck.$disabled.withValue([.replayedCommit]) {
            try await bob.engine.processMessage(replay)
        }
        #expect(result == .commit(room.group))
        #expect(try await room.state(of: room.bob) != before)
        let again = try room.republished(room.message, shift: 0)
        guard case .applicationMessage(let read) = try await room.bob.engine.processMessage(again) else {
            Issue.record("the replayed message was not read again: the attack did not go through")
            return
        }
        #expect(read.rumor.content == "once")
    }
}
