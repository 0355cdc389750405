import ConformanceTestSupport
import MLS
import TLSCodec
import Testing

/// Negative tests that reach each deep receiver check: the unchecked builders (Group+Unchecked)
/// make a message valid up to the check under test and break only that, so the receiver must fail
/// with that check's code, not at the AEAD or a signature before it. Each case has a twin built by
/// the same builder without the flaw, which the receiver accepts: the builder, not the flaw, is
/// proven sound.
@Suite struct UncheckedBuilderTests {
    typealias World = GroupTests.World

    /// alice (0), bob (1) and carol (2) in one group, at one epoch.
    static func threeMembers() throws -> World {
        var world = try World.alicePlusBob(groupID: Array("unchecked".utf8))
        let carol = try world.newMember("carol")
        try world.commit(0, adding: [.add(world.members[carol].keyPackage.keyPackage)], joining: [carol])
        return world
    }

    /// What bob makes of a message alice builds with `flaw`, sent over the wire as bytes.
    static func bobReceives(_ content: Content, flaw: MessageFlaw?, as wireFormat: HandshakeWireFormat = .privateMessage)
        throws -> ReceivedMessage
    {
        var world = try threeMembers()
        var alice = try #require(world.members[0].group)
        let message = try alice.uncheckedMessage(content, flaw: flaw, as: wireFormat, using: &world.generator)
        var bob = try #require(world.members[1].group)
        return try bob.process(MLSMessage(tlsBytes: message.tlsSerialized()))
    }

    static let text = Content.application(Array("hi".utf8))

    @Test func flawlessMessagesAreAccepted() throws {
        #expect(try Self.bobReceives(Self.text, flaw: nil) == .application(Array("hi".utf8), sender: 0))
        let proposal = Proposal.remove(leaf: 2)
        #expect(
            try Self.bobReceives(.proposal(proposal), flaw: nil, as: .publicMessage) == .proposal(proposal, sender: .member(leafIndex: 0)))
    }

    @Test func messageFlawsReachTheirChecks() throws {
        let world = try Self.threeMembers()
        let epoch = try #require(world.members[0].group).epoch
        #expect(throws: MLSError(.wrongEpoch, "")) { try Self.bobReceives(Self.text, flaw: .epoch(epoch + 1)) }
        #expect(throws: MLSError(.wrongEpoch, "")) { try Self.bobReceives(Self.text, flaw: .epoch(epoch - 1)) }
        #expect(throws: MLSError(.badPadding, "")) { try Self.bobReceives(Self.text, flaw: .padding) }
        // carol's ratchet is every member's to derive: only her signature key tells the forgery.
        #expect(throws: MLSError(.badSignature, "")) { try Self.bobReceives(Self.text, flaw: .sender(2)) }
        #expect(throws: MLSError(.badMembershipTag, "")) {
            try Self.bobReceives(.proposal(.remove(leaf: 2)), flaw: .membershipTag, as: .publicMessage)
        }
    }

    @Test func aSecondMessageOnAConsumedGenerationIsRefused() throws {
        var world = try Self.threeMembers()
        var alice = try #require(world.members[0].group)
        var twin = alice
        let first = try twin.uncheckedMessage(Self.text, flaw: nil, as: .privateMessage, using: &world.generator)
        let second = try alice.uncheckedMessage(.application([9]), flaw: nil, as: .privateMessage, using: &world.generator)
        var bob = try #require(world.members[1].group)
        _ = try bob.process(first)
        #expect(throws: MLSError(.keyConsumed, "")) { try bob.process(second) }
    }

    @Test func aWrongConfirmationTagIsRefusedAndTheRightOneAccepted() throws {
        let honest = try Self.bobProcessesSelfUpdate(flaw: nil)
        #expect(honest.received == .commit(epoch: honest.next.epoch, sender: .member(leafIndex: 0)))
        #expect(honest.bob.epochAuthenticator == honest.next.epochAuthenticator)
        #expect(throws: MLSError(.badConfirmationTag, "")) { try Self.bobProcessesSelfUpdate(flaw: .confirmationTag) }
    }

    /// What bob makes of a self-update alice commits with `flaw`, and the state it leads alice to.
    @discardableResult
    static func bobProcessesSelfUpdate(flaw: CommitFlaw?) throws -> (received: ReceivedMessage, bob: Group, next: Group) {
        var world = try threeMembers()
        var alice = try #require(world.members[0].group)
        let created = try alice.uncheckedCommit(adding: [], flaw: flaw, now: nil, using: &world.generator)
        var bob = try #require(world.members[1].group)
        let received = try bob.process(MLSMessage(tlsBytes: created.commit.tlsSerialized()))
        return (received, bob, created.next)
    }

    /// alice, alone in a fresh group, welcomes bob with `flaw`; bob joins from the bytes.
    static func bobJoins(flaw: CommitFlaw?) throws -> Group {
        var world = World()
        let alice = try world.newMember("alice")
        let bob = try world.newMember("bob")
        try world.create(alice, groupID: Array("welcome".utf8))
        var group = try #require(world.members[alice].group)
        let created = try group.uncheckedCommit(
            adding: [.add(world.members[bob].keyPackage.keyPackage)], flaw: flaw, now: nil, using: &world.generator)
        let bytes = try MLSMessage(body: .welcome(try #require(created.welcome))).tlsSerialized()
        guard case .welcome(let welcome) = try MLSMessage(tlsBytes: bytes).body else { throw MLSError(.malformed, "") }
        return try Group(welcome: welcome, keyPackage: world.members[bob].keyPackage)
    }

    @Test func welcomeFlawsReachTheirChecks() throws {
        #expect(try Self.bobJoins(flaw: nil).epoch == 1)
        #expect(throws: MLSError(.badSignature, "")) { try Self.bobJoins(flaw: .groupInfoSignature) }
        #expect(throws: MLSError(.invalidTree, "")) { try Self.bobJoins(flaw: .treeHash) }
        #expect(throws: MLSError(.invalidParentHash, "")) { try Self.bobJoins(flaw: .parentHash) }
    }
}
