import GroupCore
import ScenarioRunner
import Testing

/// The recovery rules for lost frames (docs/group-core.md, "Recovery from lost frames"), each shown
/// on a committed fault-matrix cell that passes with the rule and fails without it (Swift engine,
/// seed 1): a rule that changed nothing would fail its test.
@Suite struct FaultMatrixLostFrameTests {
    typealias Recovery = CoreConfiguration.Behaviour.Recovery

    private func needs(_ cell: String, _ change: (inout Recovery) -> Void) async throws {
        let path = "\(FaultMatrix.folder)/\(cell).yaml"
        #expect(try await FaultMatrixTests.passes(path, recovery: Recovery()), "\(cell) with the rule")
        #expect(!(try await FaultMatrixTests.passes(path, recovery: FaultMatrixTests.without(change))), "\(cell) without it")
    }

    /// A chat message whose EVENT frame is lost gets no OK: it is published again when its watch
    /// runs out, instead of staying pending for ever.
    @Test func unansweredMessageIsPublishedAgain() async throws {
        try await needs("send/message-drop") { $0.unansweredPublishes = false }
    }

    /// The same for a welcome: without the watch its invitee never joins.
    @Test func unansweredWelcomeIsPublishedAgain() async throws {
        try await needs("add/welcome-drop") { $0.unansweredPublishes = false }
    }

    /// A leave proposal the relay refuses is sent again: without tracking, the leaver stays a
    /// member everywhere.
    @Test func refusedLeaveProposalIsSentAgain() async throws {
        try await needs("leave/proposal-reject") { $0.leaveDelivery = false }
    }

    /// A leave proposal made while the relay is down waits for it.
    @Test func leaveProposalWaitsForItsRelay() async throws {
        try await needs("leave/proposal-relay-down") { $0.leaveDelivery = false }
    }

    /// A commit lost on its way to a peer is lost with the peer's connection (TCP): the peer
    /// resubscribes and catches up on it; without resubscribing it stays at the old epoch.
    @Test func commitLostOnItsWayToAPeerIsCaughtUpAfterReconnecting() async throws {
        try await needs("rename/commit-at-peer-drop") { $0.resubscribes = false }
    }
}
