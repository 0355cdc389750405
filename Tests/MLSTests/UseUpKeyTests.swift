import ConformanceTestSupport
import Testing

@testable import MLS

/// `Group.useUpKey`: a PrivateMessage read and not applied still spends its generation's key
/// (RFC 9420 §9.2), and only once its sender's signature holds, so that no other member can
/// spend a sender's keys for it.
@Suite struct UseUpKeyTests {
    @Test func aProposalReadAndNotAppliedSpendsItsKeyOnce() throws {
        let world = try UncheckedBuilderTests.threeMembers()
        var generator = TestGenerator(seed: 0x7573_6531)
        var alice = try #require(world.members[0].group)
        var carol = try #require(world.members[2].group)
        var bob = try #require(world.members[1].group)
        let proposal = Content.proposal(.groupContextExtensions(alice.context.extensions))
        // carol frames a proposal in alice's name with alice's handshake key of generation 0
        // (every member can derive it) and signs it with her own key.
        let forged = try carol.uncheckedMessage(proposal, flaw: .sender(0), as: .privateMessage, using: &generator)
        #expect(throws: MLSError(.badSignature, "")) { try bob.useUpKey(of: forged) }
        // alice's own proposal of that generation still opens: the forgery spent nothing.
        let real = try alice.uncheckedMessage(proposal, flaw: nil, as: .privateMessage, using: &generator)
        try bob.useUpKey(of: real)
        #expect(throws: MLSError(.keyConsumed, "")) { try bob.useUpKey(of: real) }
        #expect(throws: MLSError(.keyConsumed, "")) { try bob.process(real) }
    }
}
