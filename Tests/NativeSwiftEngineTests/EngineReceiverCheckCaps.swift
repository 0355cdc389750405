import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import Marmot
import Nostr
import Testing

@testable import NativeSwiftEngine

// Issue 30, N3's retirement and the caps of N6 and N10, for the generated rows of
// docs/receiver-checks.md: each switch lifts one rule or cap, and the row shows what the member
// would accept, keep or lose without it.
extension EngineReceiverCheckTests {
    static func capAttack(for check: MarmotReceiverCheck) -> Attack? {
        switch check {
        case .keyPackageRetired:
            Attack(
                name: "dave's one-time key package, used by alice's Welcome, used again by mallory's Welcome into her own group",
                expected: "invalid_welcome"
            ) {
                try await secondWelcomeForOneTimeKeyPackage(seed: 101)
            }
        case .groupRecordCap:
            Attack(name: "a group record of 17 MiB (one 17 MiB message in its history), saved", expected: EngineError.Code.storage.name) {
                try await oversizedRecordSaved()
            }
        case .groupIsolation:
            Attack(
                name: "a state file whose first group record is damaged (two bytes flipped), read at restart: the other group",
                expected: "loaded"
            ) {
                try await otherGroupAfterDamage()
            }
        case .eventIDRetention:
            Attack(
                name: "4,097 distinct wrapper ids remembered by one group record (GroupRecord.remember; event-id-flood)",
                expected: "4096 kept"
            ) {
                var set: Set<EventID> = []
                for n in 1...(GroupRecord.retainedEventIDs + 1) { GroupRecord.remember(try EventIDRetentionTests.id(n), in: &set) }
                return "\(set.count) kept"
            }
        default:
            nil
        }
    }

    /// Dave publishes a one-time key package; alice welcomes him with it and he joins; mallory then
    /// welcomes him into a group of hers with the same key-package event. Dave's answer to hers.
    static func secondWelcomeForOneTimeKeyPackage(seed: UInt64) async throws -> String {
        var room = try await Room(seed: seed)
        let dave = room.bench.swiftMember("dave")
        let keyPackage = try await oneTimeKeyPackage(of: dave, bench: &room.bench)
        let added = try await room.alice.engine.addMembers(to: room.group, keyPackages: [keyPackage])
        let (firstWrapper, first) = try room.bench.deliverWelcome(added.welcomeRumors[0], from: room.alice, to: dave)
        let joined = try await dave.engine.processWelcome(wrapperID: firstWrapper, rumor: first)
        _ = try await dave.engine.acceptWelcome(joined.id)
        let side = try await room.mallory.engine.createGroup(
            GroupCreation(
                creator: room.mallory.pubkey, keyPackages: [keyPackage], name: "Side", description: "", relays: MemberBench.relays,
                admins: [room.mallory.pubkey]))
        let (wrapper, rumor) = try room.bench.deliverWelcome(side.welcomeRumors[0], from: room.mallory, to: dave)
        _ = try await dave.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
        return "accepted"
    }

    /// A signed key-package event of `member` (a native engine) without last_resort.
    static func oneTimeKeyPackage(of member: Member, bench: inout MemberBench) async throws -> Event {
        let engine = try #require(member.engine as? NativeSwiftEngine)
        let draft = try await engine.createKeyPackage(for: member.pubkey, relays: MemberBench.relays, protected: false, lastResort: false)
        return try draft.unsignedEvent(author: member.pubkey, createdAt: bench.keyPackageTime).signed(
            with: member.keypair, using: &bench.generator)
    }

    /// A persisting engine's group given a 17 MiB message, then an operation that saves the file:
    /// "storage" when the cap refuses the record, else "saved and loaded" once a restart reads it.
    static func oversizedRecordSaved() async throws -> String {
        let directory = try StateDirectory()
        let path = directory.path + "/member.state"
        let (engine, id, _) = try await StateFileIsolationTests.twoGroups(at: path)
        await engine.keepMessageForTest(in: id, contentBytes: 17 << 20)
        _ = try await engine.selfUpdate(in: id)
        let restarted = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: 3032))
        _ = try await restarted.group(id)
        return "saved and loaded"
    }

    /// Two groups saved; the first one's record damaged in the file; a restart, then the other group.
    static func otherGroupAfterDamage() async throws -> String {
        let directory = try StateDirectory()
        let path = directory.path + "/member.state"
        let (engine, damagedID, healthyID) = try await StateFileIsolationTests.twoGroups(at: path)
        try await StateFileIsolationTests.damageRecord(of: damagedID, saved: engine, at: path)
        let restarted = try NativeSwiftEngine.persisting(at: path, stream: ContinuingStream(seed: 3031))
        _ = try await restarted.group(healthyID)
        return "loaded"
    }
}

extension NativeSwiftEngine {
    /// Tests only: a received message of `contentBytes` bytes in `group`'s history, as if it had come in.
    func keepMessageForTest(in group: MLSGroupID, contentBytes: Int) {
        guard let sender = groups[group]?.identity else { return }
        let rumor = UnsignedEvent(
            pubkey: sender, createdAt: 1, kind: .chatMessage, content: String(repeating: "a", count: contentBytes))
        groups[group]?.messages.append(ReceivedMessage(mlsGroupID: group, rumor: rumor, wrapperID: rumor.id, sender: sender))
    }
}
