import ConformanceTestSupport
import HexEncoding
import MLS
import Marmot
import Nostr
import Testing

/// MIP-03 admin rules, the competing-commit order and the application-rumor sender check.
@Suite struct RuleTests {
    static let admin = Keypair(secretKey: try! SecretKey(bytes: [UInt8](repeating: 1, count: 32))).publicKey
    static let member = Keypair(secretKey: try! SecretKey(bytes: [UInt8](repeating: 2, count: 32))).publicKey

    func summary(_ committer: PublicKey, _ proposals: [(proposal: Proposal, sender: Sender)], path: PublicKey? = nil)
        -> CommitSummary
    {
        CommitSummary(
            committer: 1, committerIdentity: committer, proposals: proposals,
            pathCredential: .basic(identity: (path ?? committer).bytes))
    }

    @Test func adminsMayCommitAnything() throws {
        try AdminPolicy.authorize(summary(Self.admin, [(.remove(leaf: 2), .member(leafIndex: 1))]), admins: [Self.admin])
        try AdminPolicy.authorize(summary(Self.admin, [(.groupContextExtensions([]), .member(leafIndex: 1))]), admins: [Self.admin])
    }

    @Test func nonAdminsMaySelfUpdateOrSelfRemoveOnly() throws {
        try AdminPolicy.authorize(summary(Self.member, []), admins: [Self.admin])
        try AdminPolicy.authorize(summary(Self.member, [(.selfRemove, .member(leafIndex: 3))]), admins: [Self.admin])
        #expect(throws: MarmotError(.commitFromNonAdmin, "")) {
            try AdminPolicy.authorize(summary(Self.member, [(.remove(leaf: 3), .member(leafIndex: 1))]), admins: [Self.admin])
        }
        #expect(throws: MarmotError(.commitFromNonAdmin, "")) {
            try AdminPolicy.authorize(
                summary(Self.member, [(.groupContextExtensions([]), .member(leafIndex: 1))]), admins: [Self.admin])
        }
        #expect(throws: MarmotError(.commitFromNonAdmin, "")) {
            try AdminPolicy.authorize(
                summary(Self.member, [(.selfRemove, .member(leafIndex: 3)), (.remove(leaf: 4), .member(leafIndex: 3))]),
                admins: [Self.admin])
        }
    }

    /// A proposal by reference keeps its proposer's rights: an admin's commit may not carry a
    /// non-admin's Add, Remove of another member or GroupContextExtensions, but may carry its leave.
    @Test func anAdminCommitCannotCarryANonAdminsProposal() throws {
        let identities: [UInt32: PublicKey] = [1: Self.admin, 3: Self.member]
        func authorize(_ proposal: Proposal, from proposer: UInt32) throws {
            try AdminPolicy.authorize(
                CommitSummary(
                    committer: 1, committerIdentity: Self.admin, proposals: [(proposal, .member(leafIndex: proposer))],
                    pathCredential: .basic(identity: Self.admin.bytes), proposerIdentities: identities),
                admins: [Self.admin])
        }
        for forbidden in [Proposal.remove(leaf: 1), .remove(leaf: 2), .groupContextExtensions([])] {
            #expect(throws: MarmotError(.commitFromNonAdmin, "")) { try authorize(forbidden, from: 3) }
        }
        try authorize(.selfRemove, from: 3)
        try authorize(.remove(leaf: 3), from: 3)
        // An unknown proposer is not given the benefit of the doubt.
        #expect(throws: MarmotError(.commitFromNonAdmin, "")) { try authorize(.remove(leaf: 2), from: 7) }
    }

    /// An Update carried by reference must keep its proposer's identity, not the committer's.
    @Test func anUpdateKeepsItsProposersIdentity() throws {
        let identities: [UInt32: PublicKey] = [3: Self.member]
        func authorize(_ leafIdentity: PublicKey, from proposer: UInt32) throws {
            var leaf = try Self.sampleLeaf()
            leaf.credential = .basic(identity: leafIdentity.bytes)
            try AdminPolicy.authorize(
                CommitSummary(
                    committer: 1, committerIdentity: Self.admin, proposals: [(.update(leaf), .member(leafIndex: proposer))],
                    pathCredential: .basic(identity: Self.admin.bytes), proposerIdentities: identities),
                admins: [Self.admin])
        }
        try authorize(Self.member, from: 3)
        try authorize(Self.admin, from: 1)
        #expect(throws: MarmotError(.identityChanged, "")) { try authorize(Self.admin, from: 3) }
        #expect(throws: MarmotError(.identityChanged, "")) { try authorize(Self.member, from: 1) }
    }

    /// A leaf node from the working group's key package vector.
    static func sampleLeaf() throws -> LeafNode {
        struct Case: Decodable { let mls_key_package: String }
        let hex = try #require(try Vectors.decode([Case].self, from: "mls/messages.json").first).mls_key_package
        let bytes = try [UInt8](hex: hex)
        guard case .keyPackage(let keyPackage) = try MLSMessage(tlsBytes: bytes).body else { throw CancellationError() }
        return keyPackage.leafNode
    }

    @Test func aPathCannotChangeTheCommittersIdentity() {
        #expect(throws: MarmotError(.identityChanged, "")) {
            try AdminPolicy.authorize(summary(Self.admin, [], path: Self.member), admins: [Self.admin])
        }
    }

    @Test func someAdminMustRemainAMember() throws {
        try AdminPolicy.requireAdmin(admins: [Self.admin], members: [Self.admin, Self.member])
        #expect(throws: MarmotError(.noAdminRemains, "")) {
            try AdminPolicy.requireAdmin(admins: [Self.admin], members: [Self.member])
        }
    }

    @Test func earlierCommitWinsThenSmallerID() throws {
        let small = try EventID(bytes: [UInt8](repeating: 1, count: 32))
        let large = try EventID(bytes: [UInt8](repeating: 2, count: 32))
        #expect(CommitOrdering.prefers((10, large), over: (11, small)))
        #expect(!CommitOrdering.prefers((11, small), over: (10, large)))
        #expect(CommitOrdering.prefers((10, small), over: (10, large)))
        #expect(!CommitOrdering.prefers((10, large), over: (10, small)))
        #expect(!CommitOrdering.prefers((10, small), over: (10, small)))
    }

    /// The winners MIP-03 names for MDK's captured races (distinct seconds, and same second both id orders).
    @Test(arguments: [
        "race_rename_distinct_ts", "race_rename_distinct_ts_bob_receives_while_pending", "race_add_distinct_ts",
        "race_rename_same_second_A_smaller_id", "race_rename_same_second_B_smaller_id",
    ])
    func capturedRacesPickTheExpectedWinner(race: String) throws {
        let file = try MDKVectors.file("06_concurrency_and_epochs.json")
        func commit(_ name: String) throws -> (createdAt: UInt64, id: EventID) {
            let createdAt = try #require(try MDKVectors.value(file, "\(race)/\(name)/created_at") as? Int)
            return (UInt64(createdAt), try EventID(hex: try MDKVectors.string(file, "\(race)/\(name)/id")))
        }
        let a = try commit("commit_A_alice")
        let b = try commit("commit_B_bob")
        let expected = try MDKVectors.string(file, "\(race)/mip03_expected_winner")
        #expect(CommitOrdering.prefers(a, over: b) == (expected == "A"))
        #expect(CommitOrdering.prefers(b, over: a) == (expected == "B"))
    }

    @Test func applicationRumorMustBeFromTheMLSSender() throws {
        let file = try MDKVectors.file("03_application_messages.json")
        let json = try MDKVectors.string(file, "alice_kind9/bob_process_message/message/event_json")
        let sender = try PublicKey(hex: try MDKVectors.string(file, "alice_kind9/sender/nostr_public_key_hex"))
        let rumor = try ApplicationRumor.open(Array(json.utf8), sender: .basic(identity: sender.bytes))
        #expect(rumor.pubkey == sender)
        #expect(rumor.kind == .chatMessage)
        #expect(try UnsignedEvent(rumorJSON: String(decoding: ApplicationRumor.encode(rumor), as: UTF8.self)) == rumor)
        #expect(throws: MarmotError(.authorMismatch, "")) {
            try ApplicationRumor.open(Array(json.utf8), sender: .basic(identity: Self.member.bytes))
        }
        #expect(throws: MarmotError(.invalidRumor, "")) { try ApplicationRumor.open([0xFF], sender: nil) }
    }
}
