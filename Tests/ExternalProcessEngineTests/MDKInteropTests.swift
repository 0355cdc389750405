import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import Nostr
import Testing

/// MDK 0.8.0 members driven through the Swift engine interface, end to end: our Nostr code signs the
/// key packages and carries the welcomes; MDK does the MLS.
@Suite(
    .enabled(
        if: MDKDriver.isAvailable,
        "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable the MDK interop tests"))
struct MDKInteropTests {
    @Test func driverIdentifiesMDK080() async throws {
        let driver = try await MDKDriver.launch()
        let capabilities = try await driver.capabilities()
        #expect(capabilities.name == "mdk")
        #expect(capabilities.version == "0.8.0")
        #expect(capabilities.supports(.keyPackage))
        #expect(capabilities.supports(.leave))
        #expect(!capabilities.supports("group.external_join"))
        await driver.shutdown()
    }

    @Test func groupLifecycleFromTwoToFourMembersWithRejections() async throws {
        let driver = try await MDKDriver.launch()
        var bench = Bench(driver: driver, seed: 0x4D44_4B30_3830)
        let alice = try await bench.member("alice")
        let bob = try await bench.member("bob")
        let carol = try await bench.member("carol")
        let dave = try await bench.member("dave")

        // Two members: alice creates the group with bob's key package.
        let bobKeyPackage = try await bench.keyPackage(of: bob)
        try await alice.engine.validateKeyPackage(bobKeyPackage)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [bobKeyPackage], name: "Interop", description: "MDK through Swift",
                relays: Bench.relays, admins: [alice.pubkey]
            ))
        let group = created.group.mlsGroupID
        try #require(created.welcomeRumors.count == 1)
        #expect(created.welcomeRumors[0].tags.contains(["e", bobKeyPackage.id.hex]))
        _ = try await bench.join(bob, rumor: created.welcomeRumors[0], from: alice, groupName: "Interop")
        var expected = GroupExpectation(members: [alice, bob], admins: [alice], name: "Interop", epoch: 1)
        try await expected.check(group, step: "created with bob")

        // Messages both ways.
        try await MemberBench.exchange("hello bob", from: alice, to: [bob], in: group)
        try await MemberBench.exchange("hello alice", from: bob, to: [alice], in: group)

        // Four members: alice adds carol and dave in one commit.
        let add = try await alice.engine.addMembers(
            to: group, keyPackages: [try await bench.keyPackage(of: carol), try await bench.keyPackage(of: dave)])
        try #require(add.welcomeRumors.count == 2)
        try await Bench.commit(add, by: alice, to: [bob])
        _ = try await bench.join(carol, rumor: add.welcomeRumors[0], from: alice, groupName: "Interop")
        _ = try await bench.join(dave, rumor: add.welcomeRumors[1], from: alice, groupName: "Interop")
        expected.members = [alice, bob, carol, dave]
        expected.epoch = 2
        try await expected.check(group, step: "added carol and dave")
        try await MemberBench.exchange("welcome both", from: dave, to: [alice, bob, carol], in: group)

        // Remove dave: the others advance, dave learns he is out.
        let remove = try await alice.engine.removeMembers(from: group, pubkeys: [dave.pubkey])
        try await Bench.commit(remove, by: alice, to: [bob, carol, dave])
        #expect(try await dave.engine.group(group).state == .inactive)
        expected.members = [alice, bob, carol]
        expected.epoch = 3
        try await expected.check(group, step: "removed dave")

        // Rename.
        let rename = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "Interop renamed"))
        try await Bench.commit(rename, by: alice, to: [bob, carol])
        expected.name = "Interop renamed"
        expected.epoch = 4
        try await expected.check(group, step: "renamed")

        // Rejection: an inner rumor whose pubkey is not the MLS sender's identity (bob claims to be alice).
        let spoof = try await bob.engine.createMessage(in: group, sender: alice.pubkey, kind: .chatMessage, content: "I am alice", tags: [])
        guard case .unprocessable(let spoofGroup, _) = try await carol.engine.processMessage(spoof) else {
            Issue.record("a rumor whose author is not the MLS sender was accepted")
            return
        }
        #expect(spoofGroup == group)

        // Non-admin leave: carol proposes (SelfRemove). MDK makes every receiver, admin or not, answer
        // with its own commit; alice's is published first, so bob's engine must adopt it over its own.
        let leave = try await carol.engine.leaveGroup(group)
        #expect(leave.welcomeRumors.isEmpty)
        var removals: [GroupEvolution] = []
        for receiver in [alice, bob] {
            guard case .proposal(let removal) = try await receiver.engine.processMessage(leave.event) else {
                Issue.record("\(receiver.name) did not answer carol's leave proposal with a commit")
                return
            }
            removals.append(removal)
        }
        try await Bench.commit(removals[0], by: alice, to: [bob, carol])
        #expect(try await carol.engine.group(group).state == .inactive)
        expected.members = [alice, bob]
        expected.epoch = 5
        try await expected.check(group, step: "carol left")

        // Rejection: a message from 6 epochs ago no longer decrypts, one from 5 epochs ago still does.
        let sixAgo = try await bob.engine.createMessage(in: group, sender: bob.pubkey, kind: .chatMessage, content: "six", tags: [])
        try await MemberBench.selfUpdate(alice, times: 1, in: group, receivers: [bob])
        let fiveAgo = try await bob.engine.createMessage(in: group, sender: bob.pubkey, kind: .chatMessage, content: "five", tags: [])
        try await MemberBench.selfUpdate(alice, times: 5, in: group, receivers: [bob])
        expected.epoch = 11
        try await expected.check(group, step: "six self-updates")
        let sixResult = try await alice.engine.processMessage(sixAgo)
        #expect(sixResult == .rejected(EngineError(.undecryptable, "")), "\(sixResult)")
        guard case .applicationMessage(let five) = try await alice.engine.processMessage(fiveAgo) else {
            Issue.record("a message from 5 epochs ago was refused")
            return
        }
        #expect(five.rumor.content == "five")

        try await rejectsNonAdminCommit(&bench, alice: alice, bob: bob, carol: carol, dave: dave)
        await driver.shutdown()
    }

    /// A commit from a non-admin. MDK refuses to build one directly (`not_admin`), but its self-update
    /// commits whatever proposals are pending: in a group whose required proposals are empty (created
    /// without invitees) a leave is a legacy Remove proposal, which non-admins store as pending, so a
    /// non-admin's next self-update commits a Remove that every receiver must refuse (MIP-03).
    private func rejectsNonAdminCommit(_ bench: inout Bench, alice: Member, bob: Member, carol: Member, dave: Member)
        async throws
    {
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [], name: "Second", relays: Bench.relays, admins: [alice.pubkey]))
        let group = created.group.mlsGroupID
        #expect(created.welcomeRumors.isEmpty)
        let add = try await alice.engine.addMembers(
            to: group,
            keyPackages: [
                try await bench.keyPackage(of: bob), try await bench.keyPackage(of: carol), try await bench.keyPackage(of: dave),
            ])
        try await alice.engine.mergePendingCommit(in: group)
        for (invitee, rumor) in zip([bob, carol, dave], add.welcomeRumors) {
            _ = try await bench.join(invitee, rumor: rumor, from: alice, groupName: "Second")
        }
        var expected = GroupExpectation(members: [alice, bob, carol, dave], admins: [alice], name: "Second", epoch: 1)
        try await expected.check(group, step: "second group")

        // Control: a non-admin's self-update with nothing pending is a pure path update, which MIP-03 allows.
        try await Bench.commit(try await bob.engine.selfUpdate(in: group), by: bob, to: [alice, carol, dave])
        expected.epoch = 2
        try await expected.check(group, step: "bob's plain self-update")

        do {
            _ = try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "bob's"))
            Issue.record("MDK let a non-admin build a rename commit")
        } catch {
            #expect(error.code == .notAdmin)
        }

        let leave = try await carol.engine.leaveGroup(group)
        #expect(try await bob.engine.processMessage(leave.event) == .pendingProposal(group))
        #expect(try await dave.engine.processMessage(leave.event) == .pendingProposal(group))
        guard case .proposal = try await alice.engine.processMessage(leave.event) else {
            Issue.record("admin did not answer the legacy Remove proposal")
            return
        }
        try await alice.engine.clearPendingCommit(in: group)

        let nonAdminCommit = try await bob.engine.selfUpdate(in: group)
        for receiver in [dave, alice] {
            let result = try await receiver.engine.processMessage(nonAdminCommit.event)
            #expect(result == .rejected(EngineError(.commitFromNonAdmin, "")), "\(receiver.name): \(result)")
            #expect(try await receiver.engine.epoch(of: group) == 2, "\(receiver.name) epoch after the refused commit")
        }
    }
}
