import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Nostr
import Testing

/// A commit wins its epoch only while nobody has built on its competitor (docs/group-core.md,
/// "Commits the group built on"). Two admins rename in one epoch; the author of the commit MIP-03
/// ranks first merges it, but everyone else applied the other one and carol committed on top of
/// it before the first commit reached them. Meeting carol's commit, the first author's engine
/// leaves its own commit for the branch the group built on, and says which commit it left.
@Suite struct RivalBranchTests {
    static func isRivalCommit(_ result: ProcessingResult) -> Bool {
        if case .rivalCommit = result { true } else { false }
    }

    struct Race {
        let group: MLSGroupID
        let epoch: UInt64
        /// The author of the commit MIP-03 ranks first, and the author of the other.
        let first: Member, second: Member, carol: Member
        let firstCommit: GroupEvolution, secondCommit: GroupEvolution
        let secondName: String
    }

    /// The race up to the point where `first` has merged its own commit and the others stand on
    /// `second`'s, with carol's self-update on top of it applied by `second`.
    func race(seed: UInt64) async throws -> (Race, successor: GroupEvolution) {
        var bench = MemberBench(seed: seed)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let carol = bench.swiftMember("carol")
        let group = try await bench.createGroup(by: alice, inviting: [bob, carol], name: "Team", admins: [alice, bob])
        let epoch = try await alice.engine.group(group).epoch
        let alpha = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "Alpha"))
        let bravo = try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "Bravo"))
        let aliceFirst = (alpha.event.createdAt, alpha.event.id) < (bravo.event.createdAt, bravo.event.id)
        let race = Race(
            group: group, epoch: epoch, first: aliceFirst ? alice : bob, second: aliceFirst ? bob : alice, carol: carol,
            firstCommit: aliceFirst ? alpha : bravo, secondCommit: aliceFirst ? bravo : alpha,
            secondName: aliceFirst ? "Bravo" : "Alpha")
        // The second commit reaches everyone else first; carol builds on it.
        #expect(try await race.second.engine.processMessage(race.secondCommit.event) == .commit(group))
        #expect(try await carol.engine.processMessage(race.secondCommit.event) == .commit(group))
        let successor = try await carol.engine.selfUpdate(in: group)
        #expect(try await carol.engine.processMessage(successor.event) == .commit(group))
        #expect(try await race.second.engine.processMessage(successor.event) == .commit(group))
        // The first commit's late OK: its author merges it, as GroupCore does.
        #expect(try await race.first.engine.processMessage(race.firstCommit.event) == .commit(group))
        return (race, successor)
    }

    @Test(arguments: [UInt64(31), 32, 33])
    func theBranchTheGroupBuiltOnIsFollowed(seed: UInt64) async throws {
        let (race, successor) = try await race(seed: seed)
        let group = race.group
        // The others are past the epoch they could roll back to: the first commit is refused.
        for member in [race.second, race.carol] {
            #expect(try await member.engine.processMessage(race.firstCommit.event) != .commit(group))
        }
        // The first author meets the second commit (ranked second: refused) and carol's on it.
        #expect(try await race.first.engine.processMessage(race.secondCommit.event) != .commit(group))
        let followed = try await race.first.engine.processMessage(successor.event)
        #expect(followed == .rivalCommit(group, replaced: race.firstCommit.event.id, competitor: race.secondCommit.event.id))
        for member in [race.first, race.second, race.carol] {
            let snapshot = try await member.engine.group(group)
            #expect(snapshot.name == race.secondName, "\(member.name) is on the branch the group built on")
            #expect(snapshot.epoch == race.epoch + 2, "\(member.name) epoch")
        }
        try await MemberBench.exchange("one group", from: race.first, to: [race.second, race.carol], in: group)
        try await MemberBench.exchange("again", from: race.carol, to: [race.first, race.second], in: group)
    }

    /// The competitor kept at the rollback point is part of the engine's state file: the first
    /// author, restarted between meeting the second commit and carol's, still follows the branch
    /// the group built on (a file without it would leave him alone, as the twin below does).
    @Test func theKeptCompetitorSurvivesARestart() async throws {
        let (race, successor) = try await race(seed: 31)
        #expect(try await race.first.engine.processMessage(race.secondCommit.event) != .commit(race.group))
        let stopped = try #require(race.first.engine as? NativeSwiftEngine)
        let directory = try StateDirectory()
        let path = directory.path + "/first.state"
        try Data(try await stopped.stateBytes()).write(to: URL(fileURLWithPath: path))
        let restarted = try NativeSwiftEngine(
            generator: ContinuingStream(seed: 99).handle, clock: { MemberBench.fixedTime }, stateFile: path)
        let followed = try await restarted.processMessage(successor.event)
        #expect(followed == .rivalCommit(race.group, replaced: race.firstCommit.event.id, competitor: race.secondCommit.event.id))
        #expect(try await restarted.group(race.group).name == race.secondName)
    }

    /// The twin: without the rule, the first author cannot open carol's commit and stays alone.
    @Test func withoutTheRuleTheFirstAuthorForks() async throws {
        try await EngineRecovery.$followsBuiltOnRival.withValue(false) {
            let (race, successor) = try await race(seed: 31)
            _ = try await race.first.engine.processMessage(race.secondCommit.event)
            let result = try await race.first.engine.processMessage(successor.event)
            #expect(result != .commit(race.group) && !Self.isRivalCommit(result))
            #expect(try await race.first.engine.group(race.group).epoch == race.epoch + 1)
        }
    }

    /// Built on ourselves, we stay: once a commit of the next epoch was applied on top of the
    /// commit we hold, a commit built on its competitor is not followed.
    @Test func aCommitWeBuiltOnIsNotLeft() async throws {
        let (race, successor) = try await race(seed: 32)
        let group = race.group
        _ = try await race.first.engine.processMessage(race.secondCommit.event)
        let ours = try await race.first.engine.selfUpdate(in: group)
        #expect(try await race.first.engine.processMessage(ours.event) == .commit(group))
        let result = try await race.first.engine.processMessage(successor.event)
        #expect(!Self.isRivalCommit(result) && result != .commit(group))
        #expect(try await race.first.engine.group(group).epoch == race.epoch + 2)
        #expect(try await race.first.engine.group(group).name != race.secondName)
    }
    /// A member that applied the second commit first and then gave way to the first (MIP-03) still
    /// follows the second's branch once the group built on it: the commit it gave up is kept like
    /// any losing competitor.
    @Test func aCommitGivenUpForABetterOneIsFollowedWhenBuiltOn() async throws {
        var bench = MemberBench(seed: 34)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let carol = bench.swiftMember("carol")
        let erin = bench.swiftMember("erin")
        let group = try await bench.createGroup(by: alice, inviting: [bob, carol, erin], name: "Team", admins: [alice, bob])
        let epoch = try await alice.engine.group(group).epoch
        let alpha = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "Alpha"))
        let bravo = try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "Bravo"))
        let aliceFirst = (alpha.event.createdAt, alpha.event.id) < (bravo.event.createdAt, bravo.event.id)
        let (first, second) = aliceFirst ? (alpha, bravo) : (bravo, alpha)
        let (firstAuthor, secondAuthor) = aliceFirst ? (alice, bob) : (bob, alice)
        #expect(try await secondAuthor.engine.processMessage(second.event) == .commit(group))
        #expect(try await carol.engine.processMessage(second.event) == .commit(group))
        let successor = try await carol.engine.selfUpdate(in: group)
        #expect(try await carol.engine.processMessage(successor.event) == .commit(group))
        #expect(try await secondAuthor.engine.processMessage(successor.event) == .commit(group))
        // erin: the second commit, then the first (which replaces it), then carol's on the second.
        #expect(try await erin.engine.processMessage(second.event) == .commit(group))
        #expect(try await erin.engine.processMessage(first.event) == .commit(group))
        #expect(
            try await erin.engine.processMessage(successor.event)
                == .rivalCommit(group, replaced: first.event.id, competitor: second.event.id))
        // The first author, as in the race above.
        #expect(try await firstAuthor.engine.processMessage(first.event) == .commit(group))
        _ = try await firstAuthor.engine.processMessage(second.event)
        #expect(Self.isRivalCommit(try await firstAuthor.engine.processMessage(successor.event)))
        for member in [alice, bob, carol, erin] {
            #expect(try await member.engine.group(group).epoch == epoch + 2, "\(member.name) epoch")
        }
        try await MemberBench.exchange("one group", from: erin, to: [alice, bob, carol], in: group)
    }
}
