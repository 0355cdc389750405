import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import Foundation
import Marmot
import NativeSwiftEngine
import Nostr
import Testing

/// The MDK driver from the repository's venv with the world shim preloaded (both made by ci/setup),
/// so that its engines read the clock and seeds each request carries (docs/driver-protocol.md).
enum MDK {
    static var isAvailable: Bool { Peers.shouldRun }

    static func launch() async throws -> DriverProcess {
        guard let python = PythonVenv.interpreter else {
            throw PythonVenv.Unavailable.noVenv(Vectors.repositoryRoot.appendingPathComponent(".venv").path)
        }
        let script = Vectors.repositoryRoot.appendingPathComponent("drivers/mdk/driver.py").path
        let shim = Vectors.repositoryRoot.appendingPathComponent(".venv/lib/libworldshim.so").path
        return await DriverProcess.launch(executable: python.path, arguments: [script], environment: ["LD_PRELOAD": shim])
    }
}

extension MemberBench {
    /// A member running MDK 0.8.0 in `driver`, on the bench's clock (`keyPackageTime`, the one our
    /// members read) and a seeded stream: a run does not depend on when or how fast it runs.
    mutating func mdkMember(_ name: String, in driver: DriverProcess) async throws -> Member {
        let keypair = Keypair.generate(using: &generator)
        let time = keyPackageTime
        let world = WorldFeed(clock: { time }, generator: TestGenerator(seed: generator.next()))
        let engine = try await driver.makeEngine(instance: name, encryptionKey: generator.bytes(32), world: world)
        return Member(name: name, keypair: keypair, engine: engine)
    }
}

/// Mixed groups: our engine and MDK 0.8.0 in one group, each side creating, welcoming and committing,
/// both on the bench's fixed clock (MDK through its world shim).
@Suite(
    .enabled(if: MDK.isAvailable, "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable the mixed tests"))
struct MixedGroupTests {
    @Test func swiftCreatorInvitesMDKMembers() async throws {
        let driver = try await MDK.launch()
        var bench = MemberBench(seed: 10, now: MemberBench.fixedTime)
        let alice = bench.swiftMember("alice")
        let bob = try await bench.mdkMember("bob", in: driver)
        let carol = try await bench.mdkMember("carol", in: driver)

        let group = try await bench.createGroup(
            by: alice, inviting: [bob, carol], name: "Mixed", admins: [alice], description: "Swift creator")
        var expected = GroupExpectation(members: [alice, bob, carol], admins: [alice], name: "Mixed", epoch: 1)
        try await expected.check(group, step: "MDK joined a Swift group")

        try await MemberBench.exchange("from swift", from: alice, to: [bob, carol], in: group)
        try await MemberBench.exchange("from mdk", from: bob, to: [alice, carol], in: group)

        // A Swift commit processed by MDK: rename and make bob an admin.
        let promote = try await alice.engine.updateGroupData(
            of: group, GroupDataChanges(name: "Mixed 2", admins: [alice.pubkey, bob.pubkey]))
        try await MemberBench.commit(promote, by: alice, to: [bob, carol])
        expected.name = "Mixed 2"
        expected.admins = [alice, bob]
        expected.epoch = 2
        try await expected.check(group, step: "Swift commit")

        // MDK commits processed by Swift: a self-update, then an admin rename.
        try await MemberBench.commit(try await carol.engine.selfUpdate(in: group), by: carol, to: [alice, bob])
        let rename = try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "Mixed 3"))
        try await MemberBench.commit(rename, by: bob, to: [alice, carol])
        expected.name = "Mixed 3"
        expected.epoch = 4
        try await expected.check(group, step: "MDK commits")
        try await MemberBench.exchange("after mdk commits", from: alice, to: [bob, carol], in: group)

        // A non-admin MDK member leaves; the Swift admin answers with the removing commit.
        let leave = try await carol.engine.leaveGroup(group)
        guard case .proposal(let removal) = try await alice.engine.processMessage(leave.event) else {
            Issue.record("the Swift admin did not answer MDK's SelfRemove")
            await driver.shutdown()
            return
        }
        // Every member must hold the proposal to process a commit covering it (MDK answers it too).
        guard case .proposal = try await bob.engine.processMessage(leave.event) else {
            Issue.record("MDK bob did not answer carol's SelfRemove")
            await driver.shutdown()
            return
        }
        try await MemberBench.commit(removal, by: alice, to: [bob, carol])
        #expect(try await carol.engine.group(group).state == .inactive)
        expected.members = [alice, bob]
        expected.epoch = 5
        try await expected.check(group, step: "MDK member left")

        // A Swift Add commit with its Welcome for a new MDK member, then a Swift Remove of it.
        let dave = try await bench.mdkMember("dave", in: driver)
        let add = try await alice.engine.addMembers(to: group, keyPackages: [try await bench.keyPackage(of: dave)])
        try await MemberBench.commit(add, by: alice, to: [bob])
        _ = try await bench.join(dave, rumor: add.welcomeRumors[0], from: alice, groupName: "Mixed 3")
        expected.members = [alice, bob, dave]
        expected.epoch = 6
        try await expected.check(group, step: "Swift added an MDK member")
        try await MemberBench.exchange("hi from mdk dave", from: dave, to: [alice, bob], in: group)
        let remove = try await alice.engine.removeMembers(from: group, pubkeys: [dave.pubkey])
        try await MemberBench.commit(remove, by: alice, to: [bob, dave])
        #expect(try await dave.engine.group(group).state == .inactive)
        expected.members = [alice, bob]
        expected.epoch = 7
        try await expected.check(group, step: "Swift removed an MDK member")
        await driver.shutdown()
    }

    @Test func mdkCreatorInvitesSwiftMembers() async throws {
        let driver = try await MDK.launch()
        var bench = MemberBench(seed: 11, now: MemberBench.fixedTime)
        let alice = try await bench.mdkMember("alice", in: driver)
        let bob = bench.swiftMember("bob")
        let carol = try await bench.mdkMember("carol", in: driver)
        let dave = bench.swiftMember("dave")

        let group = try await bench.createGroup(by: alice, inviting: [bob, carol], name: "MDK group", admins: [alice])
        var expected = GroupExpectation(members: [alice, bob, carol], admins: [alice], name: "MDK group", epoch: 1)
        try await expected.check(group, step: "Swift joined an MDK group")

        try await MemberBench.exchange("from mdk", from: alice, to: [bob, carol], in: group)
        try await MemberBench.exchange("from swift", from: bob, to: [alice, carol], in: group)

        // An MDK commit adding a second Swift member.
        let add = try await alice.engine.addMembers(to: group, keyPackages: [try await bench.keyPackage(of: dave)])
        try await MemberBench.commit(add, by: alice, to: [bob, carol])
        _ = try await bench.join(dave, rumor: add.welcomeRumors[0], from: alice, groupName: "MDK group")
        expected.members = [alice, bob, carol, dave]
        expected.epoch = 2
        try await expected.check(group, step: "MDK added a Swift member")
        try await MemberBench.exchange("hi from dave", from: dave, to: [alice, bob, carol], in: group)

        // A Swift commit processed by MDK: a non-admin self-update.
        try await MemberBench.commit(try await bob.engine.selfUpdate(in: group), by: bob, to: [alice, carol, dave])
        expected.epoch = 3
        try await expected.check(group, step: "Swift self-update")

        // A Swift member leaves; MDK's admin answers and everyone follows MDK's commit.
        let leave = try await dave.engine.leaveGroup(group)
        guard case .proposal(let removal) = try await alice.engine.processMessage(leave.event) else {
            Issue.record("MDK did not answer the Swift member's SelfRemove")
            await driver.shutdown()
            return
        }
        for member in [bob, carol] {
            guard case .proposal = try await member.engine.processMessage(leave.event) else {
                Issue.record("\(member.name) did not answer dave's SelfRemove")
                await driver.shutdown()
                return
            }
        }
        try await MemberBench.commit(removal, by: alice, to: [bob, carol, dave])
        #expect(try await dave.engine.group(group).state == .inactive)
        expected.members = [alice, bob, carol]
        expected.epoch = 4
        try await expected.check(group, step: "Swift member left")
        try await MemberBench.exchange("three again", from: carol, to: [alice, bob], in: group)
        await driver.shutdown()
    }

    /// MIP-03 across engines: each side refuses the other's non-admin commit. In a group created without
    /// invitees a leave is a legacy Remove proposal that non-admins store; a non-admin's next
    /// self-update then commits it, which is not a pure self-update.
    @Test func nonAdminCommitsAreRefusedAcrossEngines() async throws {
        let driver = try await MDK.launch()
        var bench = MemberBench(seed: 12, now: MemberBench.fixedTime)
        let alice = try await bench.mdkMember("alice", in: driver)
        let bob = bench.swiftMember("bob")
        let carol = try await bench.mdkMember("carol", in: driver)
        let dave = bench.swiftMember("dave")
        let group = try await bench.createGroup(by: alice, inviting: [], name: "Legacy", admins: [alice])
        let add = try await alice.engine.addMembers(
            to: group,
            keyPackages: [
                try await bench.keyPackage(of: bob), try await bench.keyPackage(of: carol), try await bench.keyPackage(of: dave),
            ])
        try await alice.engine.mergePendingCommit(in: group)
        for (member, rumor) in zip([bob, carol, dave], add.welcomeRumors) {
            _ = try await bench.join(member, rumor: rumor, from: alice, groupName: "Legacy")
        }

        let leave = try await dave.engine.leaveGroup(group)
        #expect(try await bob.engine.processMessage(leave.event) == .pendingProposal(group))
        #expect(try await carol.engine.processMessage(leave.event) == .pendingProposal(group))
        guard case .proposal = try await alice.engine.processMessage(leave.event) else {
            Issue.record("MDK admin did not answer the legacy Remove")
            await driver.shutdown()
            return
        }
        try await alice.engine.clearPendingCommit(in: group)

        // Built as a client without our builder's policy filter would (ownCommitPolicy leaves the
        // pending Remove out, issue 30 N4), so that MDK's receiver rule is what shows.
        let fromSwift = try await MarmotReceiverCheck.$disabled.withValue([.ownCommitPolicy]) {
            try await bob.engine.selfUpdate(in: group)
        }
        for receiver in [alice, carol] {
            let result = try await receiver.engine.processMessage(fromSwift.event)
            #expect(result == .rejected(EngineError(.commitFromNonAdmin, "")), "MDK \(receiver.name): \(result)")
        }
        try await bob.engine.clearPendingCommit(in: group)
        let fromMDK = try await carol.engine.selfUpdate(in: group)
        let result = try await bob.engine.processMessage(fromMDK.event)
        #expect(result == .rejected(EngineError(.commitFromNonAdmin, "")), "Swift bob: \(result)")
        for member in [alice, bob] { #expect(try await member.engine.epoch(of: group) == 1, "\(member.name)") }
        await driver.shutdown()
    }

    /// MIP-03 race across engines: a Swift admin and an MDK admin commit in the same epoch; MDK and
    /// Swift receivers, in both delivery orders, end on the earlier commit (ties: smaller id).
    @Test func competingCommitsFromBothEnginesConverge() async throws {
        let driver = try await MDK.launch()
        var bench = MemberBench(seed: 13, now: MemberBench.fixedTime)
        let alice = bench.swiftMember("alice")
        let bob = try await bench.mdkMember("bob", in: driver)
        let carol = try await bench.mdkMember("carol", in: driver)
        let dave = bench.swiftMember("dave")
        let erin = try await bench.mdkMember("erin", in: driver)
        let frank = bench.swiftMember("frank")
        let group = try await bench.createGroup(
            by: alice, inviting: [bob, carol, dave, erin, frank], name: "Race", admins: [alice, bob])

        let a = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "A"))
        let b = try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "B"))
        let aFirst = CommitOrdering.prefers((a.event.createdAt, a.event.id), over: (b.event.createdAt, b.event.id))
        let (winner, loser) = aFirst ? (a, b) : (b, a)
        for receiver in [carol, dave] {
            #expect(try await receiver.engine.processMessage(winner.event) == .commit(group), "\(receiver.name) winner first")
            guard case .unprocessable = try await receiver.engine.processMessage(loser.event) else {
                Issue.record("\(receiver.name) applied the losing commit after the winner")
                continue
            }
        }
        for receiver in [erin, frank] {
            #expect(try await receiver.engine.processMessage(loser.event) == .commit(group), "\(receiver.name) loser first")
            #expect(try await receiver.engine.processMessage(winner.event) == .commit(group), "\(receiver.name) rolls back")
        }
        for receiver in [carol, dave, erin, frank] {
            #expect(try await receiver.engine.group(group).name == (aFirst ? "A" : "B"), "\(receiver.name)")
            #expect(try await receiver.engine.epoch(of: group) == 2, "\(receiver.name)")
        }
        try await MemberBench.exchange("converged", from: dave, to: [carol, erin, frank], in: group)
        try await MemberBench.exchange("converged too", from: erin, to: [carol, dave, frank], in: group)
        await driver.shutdown()
    }
}
