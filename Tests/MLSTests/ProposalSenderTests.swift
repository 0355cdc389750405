import ConformanceTestSupport
import TLSCodec
import Testing

@testable import MLS

/// The sender rules of RFC 9420 §12.1.8 beyond the member's ExternalInit of the proof table
/// (docs/receiver-checks.md, `proposalSender`): an external sender named in the group's
/// external_senders extension may propose a Remove, which a member then commits, but not an
/// Update; a new member may propose its own Add. Proposals are framed as the RFC frames them
/// (PublicMessage, no membership tag) and signed by their sender's key.
@Suite struct ProposalSenderTests {
    typealias World = GroupTests.World

    /// alice, bob and carol, after alice committed an external_senders extension naming `key`.
    static func groupWithExternalSender(_ key: [UInt8]) throws -> World {
        var world = try UncheckedBuilderTests.threeMembers()
        try ReceiverCheckTests.registerExternalSender(key, &world)
        return world
    }

    /// `proposal` from `sender`, signed with `key` against `group`'s current epoch.
    static func proposal(_ proposal: Proposal, from sender: Sender, key: [UInt8], in group: Group) throws -> MLSMessage {
        let framed = FramedContent(
            groupID: group.groupID, epoch: group.epoch, sender: sender, authenticatedData: [], content: .proposal(proposal))
        let signed = try AuthenticatedContent.sign(
            framed, wireFormat: WireFormat.publicMessage, context: group.context, suite: GroupTests.suite, signaturePrivateKey: key)
        return MLSMessage(
            body: .publicMessage(try PublicMessage.protect(signed, suite: GroupTests.suite, membershipKey: [], context: group.context)))
    }

    @Test func anExternalSendersRemoveIsStoredAndCommitted() throws {
        var generator = TestGenerator(seed: 0x6578_7431)
        let service = try GroupTests.suite.generateSignatureKeyPair(using: &generator)
        var world = try Self.groupWithExternalSender(service.publicKey)
        let bob = try #require(world.members[1].group)
        let remove = try Self.proposal(.remove(leaf: 2), from: .external(senderIndex: 0), key: service.privateKey, in: bob)
        let received = try world.broadcast(remove, from: -1)
        #expect(received[1] == .proposal(.remove(leaf: 2), sender: .external(senderIndex: 0)))
        try world.commit(0)
        #expect(world.active == [0, 1])
        #expect(world.agree())
    }

    @Test func anExternalSendersUpdateIsRefusedWhenReceived() throws {
        var generator = TestGenerator(seed: 0x6578_7432)
        let service = try GroupTests.suite.generateSignatureKeyPair(using: &generator)
        let world = try Self.groupWithExternalSender(service.publicKey)
        var bob = try #require(world.members[1].group)
        let leaf = try #require(bob.tree.leaf(2))
        let update = try Self.proposal(.update(leaf), from: .external(senderIndex: 0), key: service.privateKey, in: bob)
        var unchecked = bob
        #expect(throws: MLSError(.invalidProposal, "")) { try bob.process(update) }
        // Its twin with the rule off is stored: the rule, not the framing, refused it.
        let stored = try ReceiverCheck.$disabled.withValue([.proposalSender]) { try unchecked.process(update) }
        #expect(stored == .proposal(.update(leaf), sender: .external(senderIndex: 0)))
    }

    /// A proposal refused on receipt is never stored, so no commit can carry it by reference: alice
    /// (her own check skipped) proposes an ExternalInit and commits it by reference; bob, who refused
    /// the proposal, does not know the reference.
    @Test func aRefusedProposalCannotBeCommittedByReference() throws {
        let world = try UncheckedBuilderTests.threeMembers()
        var alice = try #require(world.members[0].group)
        var bob = try #require(world.members[1].group)
        var generator = world.generator
        let kem = try GroupTests.suite.deriveKeyPair(secret: [UInt8](repeating: 3, count: 32)).publicKey
        let (proposal, commit) = try ReceiverCheck.$disabled.withValue([.proposalSender, .externalInitInMemberCommit]) {
            let proposal = try alice.propose(.externalInit(kemOutput: kem), using: &generator)
            return (proposal, try alice.uncheckedCommit(adding: [], flaw: nil, now: nil, using: &generator).commit)
        }
        #expect(throws: MLSError(.invalidProposal, "")) { try bob.process(proposal) }
        #expect(throws: MLSError(.unknownProposal, "")) { try bob.process(commit) }
    }

    @Test func aNewMemberMayProposeItsOwnAdd() throws {
        var world = try UncheckedBuilderTests.threeMembers()
        let dave = try world.newMember("dave")
        let own = world.members[dave].keyPackage
        var bob = try #require(world.members[1].group)
        let add = try Self.proposal(.add(own.keyPackage), from: .newMemberProposal, key: own.signaturePrivateKey, in: bob)
        #expect(try bob.process(add) == .proposal(.add(own.keyPackage), sender: .newMemberProposal))
    }
}
