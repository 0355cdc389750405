import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import MLS
import Marmot
import Nostr
import Testing

@testable import NativeSwiftEngine

/// Issue 30, N8 and N10: the two attacks the hostile engine builds for the retention scenarios
/// (`scenarios/hostile/rollback-epoch-proposal.yaml`, `event-id-flood.yaml`), met by our engine
/// directly, so that what each scenario's expectations cannot see (the reason of a refusal, what a
/// member remembers) is shown, and each attack is shown to work when the rules it meets are off.
@Suite struct RetentionAttackTests {
    typealias Room = EngineReceiverCheckTests.Room

    /// Bob's answers to mallory's `rollback-epoch-proposal` after alice's rename (her Remove of bob
    /// for the epoch the rename ended, then her backdated self-update carrying it), with `off`
    /// switched off, and whether bob is still a member afterwards.
    static func rollbackEpochProposal(seed: UInt64, off: Set<MarmotReceiverCheck>) async throws -> [String] {
        try await MarmotReceiverCheck.$disabled.withValue(off) {
            let room = try await Room(seed: seed)
            let rename = try await room.alice.engine.updateGroupData(of: room.group, GroupDataChanges(name: "Renamed"))
            try await room.alice.engine.mergePendingCommit(in: room.group)
            _ = try await room.bob.engine.processMessage(rename.event)
            _ = try await room.mallory.engine.processMessage(rename.event)
            let forged = try await room.forge(.rollbackEpochProposal, target: room.bob)
            var answers: [String] = []
            for event in forged.events { answers.append(try await room.bobReceives(event)) }
            let members = try await room.alice.engine.members(of: room.group)
            answers.append(members.contains(room.bob.pubkey) ? "bob stays" : "bob removed")
            return answers
        }
    }

    @Test func aRollbackEpochRemoveNeverRidesIn() async throws {
        let unknown = MLSError.Code.unknownProposal.name
        // Every check on: the Remove is not kept at the rollback point, so the commit names a
        // proposal bob never stored (GroupCore keeps it for a later epoch; none will come).
        #expect(try await Self.rollbackEpochProposal(seed: 140, off: []) == ["wrong_epoch", unknown, "bob stays"])
        // Without the N8 rule the Remove is ready at the rollback point: only the admin rule stops it.
        #expect(
            try await Self.rollbackEpochProposal(seed: 140, off: [.rollbackProposalPolicy])
                == ["wrong_epoch", "commit_from_non_admin", "bob stays"])
        // Without both, the attack works: bob rolls back and applies a non-admin's removal of himself.
        let open = try await Self.rollbackEpochProposal(seed: 140, off: [.rollbackProposalPolicy, .commitAuthorization])
        #expect(open.prefix(2) == ["wrong_epoch", "accepted"])
    }

    /// Mallory's `proposal-flood` met by bob after he handled alice's message, every engine under
    /// the knob `retained-event-ids: 16` (as in the scenario): every flood event is ignored, bob
    /// then remembers exactly 16 ids, none from before the flood, and alice's message, republished
    /// under a new id or handed back as it was, is refused by the generation rule.
    @Test func aFloodPastTheCapForgetsOldIdsAndReplaysStayRefused() async throws {
        let clock = HostileMemberTests.TestClock()
        var bench = MemberBench(seed: 141)
        let (alice, bob, mallory, group) = try await Self.floodCast(&bench, clock: clock, retainedEventIDs: 16, name: "C")
        func bobReceives(_ event: Event) async throws -> String {
            EngineReceiverCheckTests.answer(try await bob.engine.processMessage(event))
        }
        let message = try await alice.engine.createMessage(
            in: group, sender: alice.pubkey, kind: .chatMessage, content: "before the flood", tags: [])
        #expect(try await bobReceives(message) == "accepted")
        let flood = try await HostileMemberTests.forge(.proposalFlood, by: mallory, in: group)
        #expect(flood.events.count == 16 + 4)
        #expect(flood.events.allSatisfy { $0.id.bytes[0] == 0xFF }, "every id ground to sort after honest ones")
        var answers: Set<String> = []
        for event in flood.events { answers.insert(try await bobReceives(event)) }
        #expect(answers == ["unsupported_proposal"])
        let engine = try #require(bob.engine as? NativeSwiftEngine)
        let processed = try #require(await engine.processedIDs(group))
        #expect(processed == Set(flood.events.map(\.id).sorted { $0.hex > $1.hex }.prefix(16)), "the 16 largest ids stay")
        #expect(!processed.contains(message.id), "the message's id was pruned")
        // The same content under a new wrapper id: nothing remembers it, the ratchet refuses it.
        var unsigned = message.unsigned
        let oneTime = Keypair.generate(using: &bench.generator)
        unsigned.pubkey = oneTime.publicKey
        let copy = try unsigned.signed(with: oneTime, using: &bench.generator)
        #expect(try await bobReceives(copy) == MLSError.Code.keyConsumed.name)
        // The original wrapper, handed back: its id is gone, the ratchet refuses it too.
        #expect(try await bobReceives(message) == MLSError.Code.keyConsumed.name)
        // The knob only lowers the cap.
        let lifted = NativeSwiftEngine(generator: TestGenerator(seed: 1), clock: clock.reader, retainedEventIDs: 1 << 20)
        #expect(await lifted.retainedEventIDs == GroupRecord.retainedEventIDs)
    }
}

extension RetentionAttackTests {
    /// RFC 9420 §9.2: a receiver that decrypted a proposal used its generation's key, whether it
    /// then stores or ignores the proposal. Mallory sends more ignored proposals than the sender
    /// ratchet's forward window (1,024; the flood is the engines' knob, 1,100, and four more), then
    /// her next handshake message, a self-update commit: bob ignores every proposal and applies the
    /// commit. Were an ignored proposal read without using its key, bob's handshake ratchet for
    /// mallory would stay at generation 0 and everything past the window would be
    /// `mls.generationTooFar`, the commit among it (her application messages ride another ratchet,
    /// which the flood does not move).
    @Test func ignoredProposalsPastTheForwardWindowLeaveTheNextCommitReadable() async throws {
        let clock = HostileMemberTests.TestClock()
        var bench = MemberBench(seed: 142)
        let (_, bob, mallory, group) = try await Self.floodCast(&bench, clock: clock, retainedEventIDs: 1100, name: "W")
        let flood = try await HostileMemberTests.forge(.proposalFlood, by: mallory, in: group)
        #expect(flood.events.count > Int(SenderRatchet.maximumForwardDistance) + 1)
        var answers: [String: Int] = [:]
        for event in flood.events {
            answers[EngineReceiverCheckTests.answer(try await bob.engine.processMessage(event)), default: 0] += 1
        }
        #expect(answers == ["unsupported_proposal": flood.events.count])
        // An ignored proposal's key is used: the same proposal under a new wrapper id no longer opens.
        var unsigned = flood.events[0].unsigned
        let oneTime = Keypair.generate(using: &bench.generator)
        unsigned.pubkey = oneTime.publicKey
        let copy = try unsigned.signed(with: oneTime, using: &bench.generator)
        #expect(EngineReceiverCheckTests.answer(try await bob.engine.processMessage(copy)) == MLSError.Code.keyConsumed.name)
        let update = try await mallory.engine.selfUpdate(in: group)
        #expect(EngineReceiverCheckTests.answer(try await bob.engine.processMessage(update.event)) == "accepted")
    }
}

extension RetentionAttackTests {
    /// Alice's group with bob and mallory, every engine remembering `retainedEventIDs` wrapper ids.
    static func floodCast(
        _ bench: inout MemberBench, clock: HostileMemberTests.TestClock, retainedEventIDs: Int, name: String
    ) async throws -> (alice: Member, bob: Member, mallory: Member, group: MLSGroupID) {
        func member(_ label: String) -> Member {
            let keypair = Keypair.generate(using: &bench.generator)
            let engine = NativeSwiftEngine(
                generator: TestGenerator(seed: bench.generator.next()), clock: clock.reader, retainedEventIDs: retainedEventIDs)
            return Member(name: label, keypair: keypair, engine: engine)
        }
        let alice = member("alice")
        let bob = member("bob")
        let mallory = member("mallory")
        let group = try await bench.createGroup(by: alice, inviting: [bob, mallory], name: name, admins: [alice])
        return (alice, bob, mallory, group)
    }
}

extension NativeSwiftEngine {
    /// The wrapper ids `group`'s record remembers as handled (tests only).
    func processedIDs(_ group: MLSGroupID) -> Set<EventID>? {
        groups[group]?.processed
    }
}
