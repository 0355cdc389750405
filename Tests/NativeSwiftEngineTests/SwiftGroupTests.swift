import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import HexEncoding
import Marmot
import NativeSwiftEngine
import Nostr
import Testing

/// Groups whose members all run our engine.
@Suite struct SwiftGroupTests {
    @Test func lifecycleCreateAddRemoveRenameLeave() async throws {
        var bench = MemberBench(seed: 1)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let carol = bench.swiftMember("carol")
        let dave = bench.swiftMember("dave")

        let bobKeyPackage = try await bench.keyPackage(of: bob)
        try await alice.engine.validateKeyPackage(bobKeyPackage)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [bobKeyPackage], name: "Team", description: "Plans", relays: MemberBench.relays,
                admins: [alice.pubkey]))
        let group = created.group.mlsGroupID
        try #require(created.welcomeRumors.count == 1)
        #expect(
            created.welcomeRumors[0].tags == [
                ["relays"] + MemberBench.relays, ["e", bobKeyPackage.id.hex], ["client", NativeSwiftEngine.clientTag],
                ["encoding", "base64"],
            ])
        _ = try await bench.join(bob, rumor: created.welcomeRumors[0], from: alice, groupName: "Team")
        var expected = GroupExpectation(members: [alice, bob], admins: [alice], name: "Team", epoch: 1)
        try await expected.check(group, step: "created")
        try await MemberBench.exchange("hello bob", from: alice, to: [bob], in: group)
        try await MemberBench.exchange("hello alice", from: bob, to: [alice], in: group)

        let add = try await alice.engine.addMembers(
            to: group, keyPackages: [try await bench.keyPackage(of: carol), try await bench.keyPackage(of: dave)])
        try #require(add.welcomeRumors.count == 2)
        #expect(add.welcomeRumors[0].content == add.welcomeRumors[1].content, "one Welcome for all invitees")
        try await MemberBench.commit(add, by: alice, to: [bob])
        _ = try await bench.join(carol, rumor: add.welcomeRumors[0], from: alice, groupName: "Team")
        _ = try await bench.join(dave, rumor: add.welcomeRumors[1], from: alice, groupName: "Team")
        expected.members = [alice, bob, carol, dave]
        expected.epoch = 2
        try await expected.check(group, step: "added carol and dave")
        try await MemberBench.exchange("welcome", from: dave, to: [alice, bob, carol], in: group)

        let remove = try await alice.engine.removeMembers(from: group, pubkeys: [dave.pubkey])
        try await MemberBench.commit(remove, by: alice, to: [bob, carol, dave])
        #expect(try await dave.engine.group(group).state == .inactive)
        expected.members = [alice, bob, carol]
        expected.epoch = 3
        try await expected.check(group, step: "removed dave")

        let rename = try await alice.engine.updateGroupData(
            of: group, GroupDataChanges(name: "Renamed", admins: [alice.pubkey, bob.pubkey]))
        try await MemberBench.commit(rename, by: alice, to: [bob, carol])
        expected.name = "Renamed"
        expected.admins = [alice, bob]
        expected.epoch = 4
        try await expected.check(group, step: "renamed, bob admin")

        // carol (non-admin) leaves with SelfRemove; both admins answer with a commit, alice's is published.
        let leave = try await carol.engine.leaveGroup(group)
        var answers: [GroupEvolution] = []
        for receiver in [alice, bob] {
            guard case .proposal(let answer) = try await receiver.engine.processMessage(leave.event) else {
                Issue.record("\(receiver.name) did not answer carol's leave")
                return
            }
            answers.append(answer)
        }
        #expect(try await carol.engine.processMessage(leave.event) == .unprocessable(group, reason: "own_proposal"))
        try await MemberBench.commit(answers[0], by: alice, to: [bob, carol])
        #expect(try await carol.engine.group(group).state == .inactive)
        expected.members = [alice, bob]
        expected.epoch = 5
        try await expected.check(group, step: "carol left")
        try await MemberBench.exchange("two of us", from: bob, to: [alice], in: group)
    }

    @Test func refusalsHaveTypedCodes() async throws {
        var bench = MemberBench(seed: 2)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let carol = bench.swiftMember("carol")
        let group = try await bench.createGroup(by: alice, inviting: [bob, carol], name: "G", admins: [alice])

        await #expect(throws: EngineError(.notAdmin, "")) { try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "x")) }
        await #expect(throws: EngineError(.notAdmin, "")) { try await bob.engine.removeMembers(from: group, pubkeys: [carol.pubkey]) }
        await #expect(throws: EngineError(.adminCannotLeave, "")) { try await alice.engine.leaveGroup(group) }
        await #expect(throws: EngineError(.cannotRemoveSelf, "")) {
            try await alice.engine.removeMembers(from: group, pubkeys: [alice.pubkey])
        }
        await #expect(throws: EngineError(.lastAdmin, "")) { try await alice.engine.selfDemote(in: group) }
        await #expect(throws: EngineError(.unknownGroup, "")) { try await alice.engine.epoch(of: MLSGroupID(hex: "00")) }
        await #expect(throws: EngineError(.unknownWelcome, "")) {
            try await bob.engine.acceptWelcome(try EventID(bytes: [UInt8](repeating: 0, count: 32)))
        }

        // A rumor claiming another author, a duplicate, and an event for no known group.
        let spoof = try await bob.engine.createMessage(in: group, sender: alice.pubkey, kind: .chatMessage, content: "I am alice", tags: [])
        #expect(try await carol.engine.processMessage(spoof) == .unprocessable(group, reason: "author_mismatch"))
        let hello = try await bob.engine.createMessage(in: group, sender: bob.pubkey, kind: .chatMessage, content: "hi", tags: [])
        guard case .applicationMessage = try await carol.engine.processMessage(hello) else {
            Issue.record("hello refused")
            return
        }
        #expect(try await carol.engine.processMessage(hello) == .unprocessable(group, reason: "duplicate"))
        // Unlike MDK, our engine checks the outer Nostr signature.
        let forgedJSON = hello.json().replacingOccurrences(of: hello.sig.hexString, with: String(repeating: "f", count: 128))
        let forged = try Event.decodeUnverified(try JSONValue(parsing: forgedJSON))
        #expect(try await bob.engine.processMessage(forged) == .rejected(EngineError(.invalidInput, "")))
        let stranger = bench.swiftMember("stranger")
        let other = try await stranger.engine.createGroup(
            GroupCreation(
                creator: stranger.pubkey, keyPackages: [], name: "Other", relays: MemberBench.relays, admins: [stranger.pubkey]))
        let foreign = try await stranger.engine.createMessage(
            in: other.group.mlsGroupID, sender: stranger.pubkey, kind: .chatMessage, content: "?", tags: [])
        #expect(try await carol.engine.processMessage(foreign) == .rejected(EngineError(.unknownGroup, "")))
        let invalid = try await bench.keyPackage(of: carol)
        await #expect(throws: EngineError(.invalidKeyPackage, "")) {
            try await alice.engine.addMembers(to: group, keyPackages: [try tampered(invalid)])
        }
    }

    /// The same event with its content changed and re-signed, so only the key package itself is wrong.
    private func tampered(_ event: Event) throws -> Event {
        var generator = TestGenerator(seed: 99)
        let keypair = Keypair.generate(using: &generator)
        return try UnsignedEvent(
            pubkey: keypair.publicKey, createdAt: event.createdAt, kind: event.kind, tags: event.tags, content: event.content
        )
        .signed(with: keypair, using: &generator)
    }

    @Test func nonAdminCommitIsRejected() async throws {
        var bench = MemberBench(seed: 3)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let carol = bench.swiftMember("carol")
        // Created without invitees: RequiredCapabilities has no SelfRemove, so leaving is a legacy Remove.
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [], name: "Legacy", relays: MemberBench.relays, admins: [alice.pubkey]))
        let group = created.group.mlsGroupID
        #expect(created.group.epoch == 0)
        let add = try await alice.engine.addMembers(
            to: group, keyPackages: [try await bench.keyPackage(of: bob), try await bench.keyPackage(of: carol)])
        try await alice.engine.mergePendingCommit(in: group)
        _ = try await bench.join(bob, rumor: add.welcomeRumors[0], from: alice, groupName: "Legacy")
        _ = try await bench.join(carol, rumor: add.welcomeRumors[1], from: alice, groupName: "Legacy")

        // A plain non-admin self-update is allowed.
        try await MemberBench.commit(try await bob.engine.selfUpdate(in: group), by: bob, to: [alice, carol])

        let leave = try await carol.engine.leaveGroup(group)
        #expect(try await bob.engine.processMessage(leave.event) == .pendingProposal(group))
        guard case .proposal = try await alice.engine.processMessage(leave.event) else {
            Issue.record("alice did not answer")
            return
        }
        try await alice.engine.clearPendingCommit(in: group)
        // bob's builder leaves carol's pending Remove out (ownCommitPolicy, issue 30 N4); built as a
        // client without that filter would, his self-update carries it and alice refuses it.
        let nonAdminCommit = try await MarmotReceiverCheck.$disabled.withValue([.ownCommitPolicy]) {
            try await bob.engine.selfUpdate(in: group)
        }
        try await bob.engine.clearPendingCommit(in: group)
        let filtered = try await bob.engine.selfUpdate(in: group)
        let result = try await alice.engine.processMessage(nonAdminCommit.event)
        #expect(result == .rejected(EngineError(.commitFromNonAdmin, "")), "\(result)")
        #expect(try await alice.engine.epoch(of: group) == 2)
        #expect(try await alice.engine.processMessage(nonAdminCommit.event) == .previouslyFailed)
        #expect(try await alice.engine.processMessage(filtered.event) == .commit(group), "bob's own builder's self-update")
    }

    @Test func applicationMessagesFromFiveEpochsBackDecryptSixDoNot() async throws {
        var bench = MemberBench(seed: 4)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let group = try await bench.createGroup(by: alice, inviting: [bob], name: "E", admins: [alice])
        let six = try await bob.engine.createMessage(in: group, sender: bob.pubkey, kind: .chatMessage, content: "six", tags: [])
        try await MemberBench.commit(try await alice.engine.selfUpdate(in: group), by: alice, to: [bob])
        let five = try await bob.engine.createMessage(in: group, sender: bob.pubkey, kind: .chatMessage, content: "five", tags: [])
        for _ in 0..<5 { try await MemberBench.commit(try await alice.engine.selfUpdate(in: group), by: alice, to: [bob]) }
        #expect(try await alice.engine.epoch(of: group) == 7)
        #expect(try await alice.engine.processMessage(six) == .rejected(EngineError(.undecryptable, "")))
        guard case .applicationMessage(let message) = try await alice.engine.processMessage(five) else {
            Issue.record("a message from 5 epochs ago was refused")
            return
        }
        #expect(message.rumor.content == "five")
    }

    @Test func competingCommitsConvergeOnTheEarlierEvent() async throws {
        var bench = MemberBench(seed: 5)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let carol = bench.swiftMember("carol")
        let dave = bench.swiftMember("dave")
        let group = try await bench.createGroup(by: alice, inviting: [bob, carol, dave], name: "Race", admins: [alice, bob])

        let a = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "A"))
        let b = try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "B"))
        // Same created_at (one clock), so the smaller event id wins (MIP-03).
        let (winner, loser) = a.event.id < b.event.id ? (a, b) : (b, a)
        let winnerName = winner.event.id == a.event.id ? "A" : "B"
        #expect(try await carol.engine.processMessage(winner.event) == .commit(group))
        #expect(try await carol.engine.processMessage(loser.event) == .unprocessable(group, reason: "wrong_epoch"))
        #expect(try await dave.engine.processMessage(loser.event) == .commit(group))
        #expect(try await dave.engine.processMessage(winner.event) == .commit(group), "rollback to the better commit")
        for member in [carol, dave] {
            #expect(try await member.engine.group(group).name == winnerName, "\(member.name)")
            #expect(try await member.engine.epoch(of: group) == 2)
        }
        try await MemberBench.exchange("after the race", from: carol, to: [dave], in: group)
    }
}
