import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// The catch-up book on its own: stored events wait for their EOSE and come out oldest first,
/// welcomes refused are kept only while a resubscription catches up, kept events are bounded
/// (oldest dropped), kept once, and handed over in MIP-03 order a bounded number of times.
@Suite struct CatchUpBookTests {
    static let keypair: Keypair = {
        var generator = TestGenerator(seed: 0xCA7C)
        return Keypair.generate(using: &generator)
    }()

    static func event(_ content: String, at createdAt: UInt64, kind: Kind = .groupEvent) throws -> Event {
        var generator = TestGenerator(seed: createdAt ^ 0x5EED)
        return try UnsignedEvent(pubkey: keypair.publicKey, createdAt: createdAt, kind: kind, content: content)
            .signed(with: keypair, using: &generator)
    }

    static let key = CatchUpKey(url: "wss://b", subscription: "g-1")

    @Test func storedEventsWaitForTheirEOSEAndComeOutOldestFirst() throws {
        var book = CatchUpBook()
        let newest = try Self.event("n", at: 30)
        let oldest = try Self.event("o", at: 10)
        let tieA = try Self.event("t1", at: 20)
        let tieB = try Self.event("t2", at: 20)
        // (Results are taken out of `#expect`, whose expansion cannot call a mutating method.)
        let early = book.buffer(newest, for: Self.key)
        #expect(!early, "no catch-up under way: handled at once")
        book.begin(Self.key)
        for event in [newest, tieA, oldest, tieB] {
            let kept = book.buffer(event, for: Self.key)
            #expect(kept)
        }
        let otherSubscription = book.buffer(newest, for: CatchUpKey(url: "wss://b", subscription: "g-2"))
        #expect(!otherSubscription)
        let ties = [tieA, tieB].sorted { $0.id < $1.id }.map(\.id)
        #expect(book.end(Self.key)?.map(\.id) == [oldest.id] + ties + [newest.id], "created_at, then the smaller id")
        #expect(book.end(Self.key) == nil, "ended once")
        let late = book.buffer(newest, for: Self.key)
        #expect(!late)
    }

    @Test func catchUpsAreListedPerRelayInOrder() {
        var book = CatchUpBook()
        let keys = [
            CatchUpKey(url: "wss://b", subscription: "g-2"), CatchUpKey(url: "wss://a", subscription: "g-1"),
            CatchUpKey(url: "wss://b", subscription: "g-1"),
        ]
        for key in keys { book.begin(key) }
        #expect(book.keys(at: "wss://b") == [keys[2], keys[0]])
        #expect(book.keys(at: "wss://c").isEmpty)
    }

    @Test func refusedWelcomesAreKeptOnlyWhileAResubscriptionCatchesUp() throws {
        var book = CatchUpBook()
        var generator = TestGenerator(seed: 0xBE1C)
        let recipient = Keypair.generate(using: &generator)
        func welcome(_ n: UInt64) throws -> (Event, GiftWrap.Unwrapped) {
            let rumor = UnsignedEvent(pubkey: Self.keypair.publicKey, createdAt: n, kind: .welcome, content: "w\(n)")
            let wrap = try GiftWrap.wrap(
                rumor: rumor, sender: Self.keypair, recipient: recipient.publicKey, now: 1_000 + n, using: &generator)
            return (wrap, try GiftWrap.unwrap(wrap, recipient: recipient))
        }
        let first = try welcome(1)
        book.keepRefusedWelcome(first.0, opened: first.1)
        #expect(!book.hasRefusedWelcomes, "no resubscription catching up: a refused welcome is a replay")

        book.begin(Self.key)
        book.beginReturning(Self.key)
        book.keepRefusedWelcome(first.0, opened: first.1)
        book.keepRefusedWelcome(first.0, opened: first.1)
        #expect(book.refusedWelcomes.map(\.wrap.id) == [first.0.id], "kept once")
        var wraps = [first.0.id]
        for n in 2...(UInt64(CatchUpBook.maximumRefusedWelcomes) + 2) {
            let next = try welcome(n)
            book.keepRefusedWelcome(next.0, opened: next.1)
            wraps.append(next.0.id)
        }
        #expect(book.refusedWelcomes.map(\.wrap.id) == Array(wraps.suffix(CatchUpBook.maximumRefusedWelcomes)), "oldest dropped")

        // The catch-up ends: its events go first, and the welcomes stay until they have.
        _ = book.end(Self.key)
        #expect(book.returning.isEmpty && book.hasRefusedWelcomes)
        book.dropRefusedWelcomesIfNoneReturning()
        #expect(!book.hasRefusedWelcomes)

        // Taken for a retry, they leave the book; with another resubscription still catching up
        // nothing is dropped.
        let other = CatchUpKey(url: "wss://a", subscription: "g-1")
        book.begin(other)
        book.beginReturning(other)
        book.beginReturning(Self.key)
        book.keepRefusedWelcome(first.0, opened: first.1)
        _ = book.end(Self.key)
        book.dropRefusedWelcomesIfNoneReturning()
        #expect(book.hasRefusedWelcomes, "another resubscription may still remove us")
        #expect(book.takeRefusedWelcomes().map(\.wrap.id) == [first.0.id])
        #expect(!book.hasRefusedWelcomes)
    }

    @Test func eventsOfALaterEpochAreKeptOnceBoundedAndTakenInOrder() throws {
        var book = CatchUpBook()
        let events = try (0..<(CatchUpBook.maximumFutureEvents + 2)).map { try Self.event("f\($0)", at: 1_000 - UInt64($0)) }
        book.keepForLaterEpoch(events[0], in: "c", waitsForProposal: false)
        book.keepForLaterEpoch(events[0], in: "c", waitsForProposal: true)
        #expect(book.futureEvents["c"]?.count == 1 && !book.waitsForProposal(in: "c"), "kept once, as first kept")
        for event in events.dropFirst() { book.keepForLaterEpoch(event, in: "c", waitsForProposal: false) }
        let kept = try #require(book.futureEvents["c"])
        #expect(kept.map(\.event.id) == events.suffix(CatchUpBook.maximumFutureEvents).map(\.id), "oldest kept dropped")
        #expect(kept.allSatisfy { $0.retries == 0 })
        book.keepForLaterEpoch(events[0], in: "d", waitsForProposal: true)
        #expect(book.waitsForProposal(in: "d") && book.hasFutureEvents(in: "d") && !book.hasFutureEvents(in: "e"))

        let takenOrNil = book.takeFutureEvents(in: "c")
        let taken = try #require(takenOrNil)
        #expect(taken.map(\.event.createdAt) == taken.map(\.event.createdAt).sorted(), "MIP-03 order: oldest first")
        #expect(taken.count == CatchUpBook.maximumFutureEvents)
        #expect(book.takeFutureEvents(in: "c") == nil && !book.hasFutureEvents(in: "c"))
        book.futureEvents["c"] = []
        #expect(book.takeFutureEvents(in: "c") == nil, "an empty list is nothing to retry")
    }

    @Test func aRetriedEventIsKeptAgainWithItsRetryUntilTheLimit() throws {
        var book = CatchUpBook()
        let event = try Self.event("r", at: 5)
        book.retryCount = 3
        book.keepAfterRetry(event, in: "c", waitsForProposal: true)
        #expect(book.futureEvents["c"]?.map(\.retries) == [3] && book.waitsForProposal(in: "c"))
        _ = book.takeFutureEvents(in: "c")
        book.retryCount = CatchUpBook.maximumFutureRetries
        book.keepAfterRetry(event, in: "c", waitsForProposal: false)
        #expect(!book.hasFutureEvents(in: "c"), "after the last retry the event is let go")
    }

    @Test func eventsRefusedWhileRemovedAreKeptOnceBoundedAndTakenInOrder() throws {
        var book = CatchUpBook()
        let events = try (0..<(CatchUpBook.maximumFutureEvents + 1)).map { try Self.event("x\($0)", at: 2_000 - UInt64($0)) }
        for event in events + [events[1]] { book.keepWhileRemoved(event, in: "c") }
        #expect(book.eventsWhileRemoved["c"]?.map(\.id) == events.suffix(CatchUpBook.maximumFutureEvents).map(\.id))
        let takenOrNil = book.takeEventsWhileRemoved(in: "c")
        let taken = try #require(takenOrNil)
        #expect(taken.map(\.id) == events.suffix(CatchUpBook.maximumFutureEvents).reversed().map(\.id), "oldest first")
        #expect(book.takeEventsWhileRemoved(in: "c") == nil)
    }
}
