import EngineInterface
import Foundation
import MLS
import NativeSwiftEngine
import Nostr
import Testing

/// Our engine speaking the current profile to itself: key packages, a group, a Welcome, messages,
/// an app_data_update and a leave; and the typed refusals across profiles (each with its twin).
struct CurrentProfileTests {
    static let relays = ["wss://relay-a.example.com"]
    static let now: UInt64 = 1_790_000_000

    struct Member {
        let keypair: Keypair
        let engine: NativeSwiftEngine
        var pubkey: PublicKey { keypair.publicKey }
    }

    static func member(_ seed: UInt64, _ profile: MarmotProfile) -> Member {
        var generator = SplitMix(seed: seed)
        let keypair = Keypair.generate(using: &generator)
        let engine = NativeSwiftEngine(
            generator: SplitMix(seed: seed &+ 1000), clock: { now }, profile: profile, accountKeys: [keypair])
        return Member(keypair: keypair, engine: engine)
    }

    /// `member`'s key package, published as its app would: the draft's tags and content, signed by the account.
    static func keyPackage(of member: Member) async throws -> Event {
        let draft = try await member.engine.createKeyPackage(for: member.pubkey, relays: relays, protected: false)
        var generator = SplitMix(seed: 7)
        return try UnsignedEvent(pubkey: member.pubkey, createdAt: now, kind: 30443, tags: draft.tags, content: draft.content)
            .signed(with: member.keypair, using: &generator)
    }

    @Test func currentMembersTalk() async throws {
        let alice = Self.member(1, .current)
        let bob = Self.member(2, .current)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [try await Self.keyPackage(of: bob)], name: "Current", description: "d",
                relays: Self.relays, admins: [alice.pubkey]))
        #expect(created.welcomeRumors.count == 1)
        let pending = try await bob.engine.processWelcome(
            wrapperID: try EventID(bytes: [UInt8](repeating: 1, count: 32)), rumor: created.welcomeRumors[0])
        let joined = try await bob.engine.acceptWelcome(pending.id)
        let group = joined.mlsGroupID
        #expect(joined.name == "Current" && joined.admins == [alice.pubkey] && joined.epoch == created.group.epoch)

        // A message: kind 445 with only an h tag, opened as alice's.
        let message = try await alice.engine.createMessage(in: group, sender: alice.pubkey, kind: 9, content: "hi", tags: [])
        #expect(message.tags.map { $0[0] } == ["h"])
        guard case .applicationMessage(let received) = try await bob.engine.processMessage(message) else {
            Issue.record("the message did not open")
            return
        }
        #expect(received.sender == alice.pubkey && received.rumor.content == "hi")

        // The same envelope signed with alice's account key is refused before it is opened; signed
        // with another fresh key (the twin) it opens.
        let again = try await alice.engine.createMessage(in: group, sender: alice.pubkey, kind: 9, content: "again", tags: [])
        var generator = SplitMix(seed: 21)
        func resigned(_ key: Keypair) throws -> Event {
            try UnsignedEvent(pubkey: key.publicKey, createdAt: again.createdAt, kind: again.kind, tags: again.tags, content: again.content)
                .signed(with: key, using: &generator)
        }
        #expect(try await bob.engine.processMessage(try resigned(alice.keypair)) == .rejected(EngineError(.invalidTags, "")))
        guard case .applicationMessage = try await bob.engine.processMessage(try resigned(Keypair.generate(using: &generator))) else {
            Issue.record("a freshly signed envelope did not open")
            return
        }

        // A rename travels as an app_data_update of 0x8001.
        let rename = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "Renamed"))
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await bob.engine.processMessage(rename.event) == .commit(group))
        #expect(try await bob.engine.group(group).name == "Renamed")

        // Bob (no admin) cannot rename; he leaves by SelfRemove, which alice keeps for a commit.
        await #expect(throws: EngineError(.notAdmin, "")) {
            try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "Mine"))
        }
        // (An admin's SelfRemove is refused by every receiver; bob is no admin.)
        let leave = try await bob.engine.leaveGroup(group)
        guard case .proposal(let answer) = try await alice.engine.processMessage(leave.event) else {
            Issue.record("alice did not answer bob's SelfRemove with her commit")
            return
        }
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await alice.engine.members(of: group) == [alice.pubkey])
        #expect(try await bob.engine.processMessage(answer.event) == .commit(group))
        #expect(try await bob.engine.group(group).state == .inactive)
    }

    @Test func profilesRefuseEachOther() async throws {
        let current = Self.member(3, .current)
        let legacy = Self.member(4, .legacy)
        let other = Self.member(5, .current)
        let currentPackage = try await Self.keyPackage(of: current)
        // Twin: a current key package validates on a current member.
        try await other.engine.validateKeyPackage(currentPackage)
        await #expect(throws: EngineError(.profileMismatch, "")) { try await legacy.engine.validateKeyPackage(currentPackage) }

        let draft = try await legacy.engine.createKeyPackage(for: legacy.pubkey, relays: Self.relays, protected: false)
        var generator = SplitMix(seed: 8)
        let legacyPackage = try UnsignedEvent(
            pubkey: legacy.pubkey, createdAt: Self.now, kind: 30443, tags: draft.tags, content: draft.content
        ).signed(with: legacy.keypair, using: &generator)
        try await Self.member(6, .legacy).engine.validateKeyPackage(legacyPackage)
        do {
            try await current.engine.validateKeyPackage(legacyPackage)
            Issue.record("a current member accepted a legacy key package")
        } catch {
            #expect(error.code == .profileMismatch)
            #expect(error.reason.contains("legacy") && error.reason.contains("current"), "the reason names both profiles")
        }

        // Inviting across profiles ends in the same typed refusal on the inviter's side.
        let legacyInviter = Self.member(9, .legacy)
        await #expect(throws: EngineError(.profileMismatch, "")) {
            _ = try await legacyInviter.engine.createGroup(
                GroupCreation(
                    creator: legacyInviter.pubkey, keyPackages: [currentPackage], name: "Old", relays: Self.relays,
                    admins: [legacyInviter.pubkey]))
        }
        await #expect(throws: EngineError(.profileMismatch, "")) {
            _ = try await current.engine.createGroup(
                GroupCreation(
                    creator: current.pubkey, keyPackages: [legacyPackage], name: "New", relays: Self.relays,
                    admins: [current.pubkey]))
        }
        #expect(try await current.engine.groups().isEmpty)
    }

    @Test func currentProfileNeedsTheAccountKey() async throws {
        var generator = SplitMix(seed: 11)
        let stranger = Keypair.generate(using: &generator).publicKey
        let engine = NativeSwiftEngine(generator: SplitMix(seed: 12), clock: { Self.now }, profile: .current)
        await #expect(throws: EngineError(.invalidInput, "")) {
            _ = try await engine.createKeyPackage(for: stranger, relays: Self.relays, protected: false)
        }
        // Twin: a legacy engine needs no account key.
        let legacy = NativeSwiftEngine(generator: SplitMix(seed: 12), clock: { Self.now })
        _ = try await legacy.createKeyPackage(for: stranger, relays: Self.relays, protected: false)
    }

    @Test func capabilitiesDeclareBothProfiles() async throws {
        let engine = NativeSwiftEngine(generator: SplitMix(seed: 1), clock: { Self.now })
        #expect(try await engine.capabilities().profiles == [.legacy, .current])
    }
}
