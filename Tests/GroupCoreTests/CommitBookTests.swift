import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// The commit book on its own: one commit in flight per chat, each relay's answer counted once,
/// the settle window's replacements, changes put off for one second after a new epoch, leave
/// proposals made again a bounded number of times, invitees queued behind the commit in flight.
@Suite struct CommitBookTests {
    static let keypair: Keypair = {
        var generator = TestGenerator(seed: 0xC0B0)
        return Keypair.generate(using: &generator)
    }()

    static func event(_ content: String, at createdAt: UInt64 = 1_700_000_000) throws -> Event {
        var generator = TestGenerator(seed: UInt64(content.utf8.count) &* 31 &+ createdAt)
        return try UnsignedEvent(pubkey: keypair.publicKey, createdAt: createdAt, kind: .groupEvent, content: content)
            .signed(with: keypair, using: &generator)
    }

    static func commit(_ content: String, in chatID: String, relays: Set<String> = ["a", "b"]) throws -> PendingCommit {
        PendingCommit(
            chatID: chatID, event: try event(content), label: "rename", change: .rename(content), outstanding: relays,
            welcomes: [], timer: TimerToken(7))
    }

    @Test func oneCommitIsInFlightPerChatUntilItIsFinished() throws {
        var book = CommitBook()
        let commit = try Self.commit("one", in: "c")
        #expect(!book.isPending(in: "c") && book.isIdle(in: "c"))
        book.begin(commit)
        #expect(book.isPending(in: "c") && !book.isIdle(in: "c"))
        #expect(!book.isPending(in: "d"), "another chat is not held up")
        #expect(book.inFlight(commit.eventID, in: "c")?.label == "rename")
        #expect(book.inFlight(commit.eventID, in: "d") == nil && book.inFlight("00", in: "c") == nil)
        book.finish(in: "c")
        #expect(!book.isPending(in: "c") && book.inFlight(commit.eventID, in: "c") == nil)
    }

    @Test func eachRelayAnswersOnceAndRefusalsAreRecorded() throws {
        var book = CommitBook()
        let commit = try Self.commit("two", in: "c")
        book.begin(commit)
        #expect(book.answer(chatID: "c", eventID: commit.eventID, from: "z", refusal: nil) == nil, "not one of its relays")
        #expect(book.answer(chatID: "c", eventID: "00", from: "a", refusal: nil) == nil, "another commit's answer")
        // (Results are taken out of `#require`, whose expansion cannot call a mutating method.)
        let refusal = book.answer(chatID: "c", eventID: commit.eventID, from: "a", refusal: "blocked")
        let refused = try #require(refusal)
        #expect(refused.outstanding == ["b"] && refused.refusals == ["a: blocked"])
        #expect(book.pending["c"]?.refusals == ["a: blocked"], "a refusal is kept for the error that may follow")
        #expect(book.answer(chatID: "c", eventID: commit.eventID, from: "a", refusal: nil) == nil, "a relay answers once")
        let acceptance = book.answer(chatID: "c", eventID: commit.eventID, from: "b", refusal: nil)
        let accepted = try #require(acceptance)
        #expect(accepted.outstanding.isEmpty && accepted.refusals == ["a: blocked"])
    }

    @Test func aRelayServingOurCommitIsRememberedOnceInOrder() throws {
        var book = CommitBook()
        let commit = try Self.commit("three", in: "c", relays: ["a", "b", "c"])
        #expect(book.served(eventID: commit.eventID, in: "c", by: "a") == nil, "nothing in flight")
        book.begin(commit)
        #expect(book.served(eventID: commit.eventID, in: "c", by: "b") == true)
        #expect(book.served(eventID: commit.eventID, in: "c", by: "b") == false)
        #expect(book.served(eventID: commit.eventID, in: "c", by: "a") == true)
        #expect(book.pending["c"]?.servedBy == ["a", "b"])
        #expect(book.served(eventID: commit.eventID, in: "c", by: "z") == nil, "not one of its relays")
        #expect(book.served(eventID: "00", in: "c", by: "c") == nil, "not our commit")
        _ = book.answer(chatID: "c", eventID: commit.eventID, from: "c", refusal: "no")
        #expect(book.served(eventID: commit.eventID, in: "c", by: "c") == nil, "a relay that answered is not waited for")
    }

    @Test func groupEventsAreHeldOnlyWhileACommitIsInFlight() throws {
        var book = CommitBook()
        let held = try Self.event("held")
        #expect(book.hold(held, in: "c") == nil)
        book.begin(try Self.commit("four", in: "c"))
        #expect(book.hold(held, in: "c")?.held.map(\.id) == [held.id])
        #expect(book.pending["c"]?.held.map(\.id) == [held.id])
        #expect(book.hold(held, in: "d") == nil)
    }

    @Test func changesWaitOnlyWithinTheSecondAfterAReceivedCommit() throws {
        var book = CommitBook()
        #expect(book.deferIfUnsettled(.rename("x"), in: "c", now: 100) == nil, "no epoch entered: commit now")
        book.enteredEpoch("c", at: 100)
        #expect(book.deferIfUnsettled(.rename("late"), in: "c", now: 102) == nil, "two seconds on, the epoch has settled")
        #expect(book.deferIfUnsettled(.rename("x"), in: "c", now: 101) == .first)
        #expect(book.deferIfUnsettled(.rename("y"), in: "c", now: 101) == nil, "an epoch puts changes off once")
        book.enteredEpoch("c", at: 101)
        #expect(book.deferIfUnsettled(.selfUpdate, in: "c", now: 101) == .behindOthers, "the timer already runs")
        #expect(!book.isIdle(in: "c") && !book.isPending(in: "c"))
        let takenOrNil = book.takeDeferred(in: "c")
        let taken = try #require(takenOrNil)
        #expect(taken.map(\.label) == [CommitChange.rename("x").label, CommitChange.selfUpdate.label])
        #expect(book.takeDeferred(in: "c") == nil && book.isIdle(in: "c"))
    }

    @Test func aCommitIsReplacedOnlyWhereTheEpochDidNotMovePastIt() throws {
        var book = CommitBook()
        let ours = try Self.commit("five", in: "c")
        let elsewhere = try Self.commit("six", in: "d")
        book.startSettling(SettlingCommit(commit: ours, epoch: 5, timer: TimerToken(1)))
        book.startSettling(SettlingCommit(commit: elsewhere, epoch: 5, timer: TimerToken(2)))
        let winner = try Self.event("winner")
        let later = try Self.event("later")
        #expect(book.markReplaced(in: "c", epochNow: 6, by: winner).isEmpty, "a commit on top of ours does not replace it")
        #expect(book.markReplaced(in: "c", epochNow: 5, by: winner).map(\.id) == [ours.eventID])
        #expect(book.settling[ours.eventID]?.replacedBy?.id == winner.id)
        #expect(book.settling[elsewhere.eventID]?.replacedBy == nil, "only the chat's own commits")
        #expect(book.markReplaced(in: "c", epochNow: 5, by: later).isEmpty, "the first replacement stands")
        #expect(book.markLeftForRival(ours.eventID, in: "c", by: later) == nil, "already replaced")
        #expect(book.markLeftForRival(elsewhere.eventID, in: "c", by: later) == nil, "another chat's commit")
        #expect(book.markLeftForRival(elsewhere.eventID, in: "d", by: later)?.commit.eventID == elsewhere.eventID)
        #expect(book.takeSettled(ours.eventID)?.replacedBy?.id == winner.id)
        #expect(book.takeSettled(ours.eventID) == nil)
    }

    @Test func theCommitThatStoodIsKeptUntilTakenOrForgotten() throws {
        var book = CommitBook()
        let ours = try Self.commit("seven", in: "c")
        book.stand(SettlingCommit(commit: ours, epoch: 3, timer: TimerToken(1)))
        #expect(book.standing("00", in: "c") == nil && book.standing(ours.eventID, in: "d") == nil)
        #expect(book.standing(ours.eventID, in: "c")?.epoch == 3)
        #expect(book.takeStanding(in: "c")?.commit.eventID == ours.eventID)
        #expect(book.takeStanding(in: "c") == nil)
        book.stand(SettlingCommit(commit: ours, epoch: 3, timer: TimerToken(1)))
        book.forgetStanding(in: "c")
        #expect(book.standing(ours.eventID, in: "c") == nil)
    }

    @Test func aLeaveProposalIsMadeAgainInANewEpochABoundedNumberOfTimes() throws {
        var book = CommitBook()
        #expect(book.nextLeaveAttempt(in: "c") == 1)
        #expect(book.leaveProposalAfterCommit(in: "c", memberAt: 9) == nil, "nothing proposed")
        book.recordLeaveProposal(in: "c", epoch: 3, attempts: 1)
        #expect(book.nextLeaveAttempt(in: "c") == 2)
        #expect(book.leaveProposalAfterCommit(in: "c", memberAt: 3) == nil, "the proposal's epoch still stands")
        book.begin(try Self.commit("eight", in: "c"))
        #expect(book.leaveProposalAfterCommit(in: "c", memberAt: 4) == nil, "our commit in flight comes first")
        book.finish(in: "c")
        #expect(book.leaveProposalAfterCommit(in: "c", memberAt: 4) == .proposeAgain)
        book.recordLeaveProposal(in: "c", epoch: 4, attempts: CommitBook.maximumLeaveProposals)
        #expect(book.leaveProposalAfterCommit(in: "c", memberAt: 5) == .givenUp(attempts: CommitBook.maximumLeaveProposals))
        #expect(book.leaveProposals["c"] == nil && book.nextLeaveAttempt(in: "c") == 1, "given up, forgotten")
        book.recordLeaveProposal(in: "c", epoch: 4, attempts: 2)
        #expect(book.leaveProposalAfterCommit(in: "c", memberAt: nil) == nil, "out of the chat: carried out")
        #expect(book.leaveProposals["c"] == nil)
        book.recordLeaveProposal(in: "c", epoch: 4, attempts: 2)
        book.forgetLeaveProposal(in: "c")
        #expect(book.leaveProposals["c"] == nil)
    }

    @Test func queuedInviteesWaitForTheCommitInFlight() throws {
        var book = CommitBook()
        let first = try Self.event("kp1")
        let second = try Self.event("kp2")
        let third = try Self.event("kp3")
        #expect(book.queueInvitations([first, second], in: "c") == 2)
        #expect(book.queueInvitations([third], in: "c") == 3)
        book.begin(try Self.commit("nine", in: "c"))
        #expect(book.nextInvitations(in: "c") == nil, "one commit in flight at a time")
        #expect(book.invitationQueues["c"]?.count == 3, "still queued")
        book.finish(in: "c")
        #expect(book.nextInvitations(in: "c")?.map(\.id) == [first.id, second.id, third.id])
        #expect(book.nextInvitations(in: "c") == nil)
    }
}
