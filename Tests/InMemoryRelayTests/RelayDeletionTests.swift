import InMemoryRelay
import Nostr
import Testing

/// R15–R17 of nostr-relay-semantics.md: NIP-09 deletion and NIP-40 expiration.
@Suite struct RelayDeletionTests {
    // R15 (NIP-09): a kind 5 `e` tag by the author removes the event; a re-publish is refused.
    @Test func r15AuthorDeletionByETagRemovesAndBlocksRepublish() throws {
        var harness = RelayHarness()
        let note = try harness.event(1)
        _ = try harness.ok(note)
        let deletion = try harness.event(.deletion, at: 1, tags: [["e", note.id.hex], ["k", "1"]])
        #expect(try harness.ok(deletion).accepted)
        #expect(try harness.query([Filter(kinds: [1])]).isEmpty)
        let again = try harness.ok(note)
        #expect(!again.accepted && prefix(again.message) == .blocked)
    }

    // R15 (NIP-09): deleting an event the relay has not seen yet still blocks its later arrival.
    @Test func r15DeletionBeforeArrivalBlocksTheEvent() throws {
        var harness = RelayHarness()
        let note = try harness.event(1)
        _ = try harness.ok(try harness.event(.deletion, at: 1, tags: [["e", note.id.hex]]))
        #expect(!(try harness.ok(note).accepted))
    }

    // R15 (NIP-09): an `a` tag deletes all versions up to the request's created_at; newer ones
    // are accepted afterwards.
    @Test func r15AddressDeletionCoversVersionsUpToItsCreatedAt() throws {
        var harness = RelayHarness()
        let address = "30000:\(harness.alice.publicKey.hex):z"
        let t4 = try harness.event(30000, at: 4, tags: [["d", "z"]])
        _ = try harness.ok(t4)
        _ = try harness.ok(try harness.event(.deletion, at: 5, tags: [["a", address]]))
        #expect(try harness.query([Filter(kinds: [30000])]).isEmpty)
        let t3 = try harness.event(30000, at: 3, tags: [["d", "z"]])
        #expect(!(try harness.ok(t3).accepted))
        let t6 = try harness.event(30000, at: 6, tags: [["d", "z"]])
        #expect(try harness.ok(t6).accepted)
        #expect(try harness.query([Filter(kinds: [30000])]) == [t6.id.hex])
    }

    // R16 (NIP-09): the kind 5 itself keeps being served.
    @Test func r16DeletionRequestItselfIsServed() throws {
        var harness = RelayHarness()
        let note = try harness.event(1)
        _ = try harness.ok(note)
        let deletion = try harness.event(.deletion, at: 1, tags: [["e", note.id.hex]])
        _ = try harness.ok(deletion)
        #expect(try harness.query([Filter(kinds: [.deletion])]) == [deletion.id.hex])
    }

    // R16 (NIP-09): a deletion by someone else has no effect on the target.
    @Test func r16NonAuthorDeletionHasNoEffect() throws {
        var harness = RelayHarness()
        let note = try harness.event(1)
        _ = try harness.ok(note)
        _ = try harness.ok(try harness.event(.deletion, by: harness.bob, at: 1, tags: [["e", note.id.hex]]))
        #expect(try harness.query([Filter(kinds: [1])]) == [note.id.hex])
        // The author's own deletion still works afterwards.
        _ = try harness.ok(try harness.event(.deletion, at: 2, tags: [["e", note.id.hex]]))
        #expect(try harness.query([Filter(kinds: [1])]).isEmpty)
    }

    // R16 (NIP-09): "Deletion of a deletion request has no effect."
    @Test func r16DeletingADeletionHasNoEffect() throws {
        var harness = RelayHarness()
        let note = try harness.event(1)
        _ = try harness.ok(note)
        let first = try harness.event(.deletion, at: 1, tags: [["e", note.id.hex]])
        _ = try harness.ok(first)
        _ = try harness.ok(try harness.event(.deletion, at: 2, tags: [["e", first.id.hex]]))
        #expect(try harness.query([Filter(kinds: [.deletion])]).count == 2)
        #expect(try harness.query([Filter(kinds: [1])]).isEmpty)
    }

    // R16 (NIP-59): a deletion by the recipient named in a gift wrap's `p` removes the wrap,
    // although the wrap is signed by a throwaway key.
    @Test func r16RecipientMayDeleteAGiftWrapAddressedToThem() throws {
        var harness = RelayHarness()
        let wrap = try harness.event(.giftWrap, by: harness.carol, tags: [["p", harness.bob.publicKey.hex]])
        _ = try harness.ok(wrap)
        _ = try harness.ok(try harness.event(.deletion, by: harness.alice, at: 1, tags: [["e", wrap.id.hex]]))
        #expect(try harness.query([Filter(kinds: [.giftWrap])]) == [wrap.id.hex])
        _ = try harness.ok(try harness.event(.deletion, by: harness.bob, at: 1, tags: [["e", wrap.id.hex]]))
        #expect(try harness.query([Filter(kinds: [.giftWrap])]).isEmpty)
    }

    // R17 (NIP-40): an already expired event is dropped on publish.
    @Test func r17ExpiredOnArrivalIsRefused() throws {
        var harness = RelayHarness()
        let expiration = String(RelayHarness.start - 1)
        let verdict = try harness.ok(try harness.event(.groupEvent, tags: [["expiration", expiration]]))
        #expect(!verdict.accepted)
        #expect(harness.relay.storedEventCount == 0)
    }

    // R17 (NIP-40): once the world clock passes `expiration`, the event is no longer served.
    @Test func r17EventStopsBeingServedOnceTheClockPassesExpiration() throws {
        var harness = RelayHarness()
        let expiration = RelayHarness.start + 60
        let message = try harness.event(.groupEvent, tags: [["h", "g"], ["expiration", String(expiration)]])
        #expect(try harness.ok(message).accepted)
        harness.now = expiration
        #expect(try harness.query([Filter(tags: ["h": ["g"]])]) == [message.id.hex])
        harness.now = expiration + 1
        #expect(try harness.query([Filter(tags: ["h": ["g"]])]).isEmpty)
    }
}
