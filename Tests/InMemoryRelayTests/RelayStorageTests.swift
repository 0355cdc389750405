import InMemoryRelay
import Nostr
import Testing

/// R4–R7 of nostr-relay-semantics.md: storage by kind class (NIP-01).
@Suite struct RelayStorageTests {
    // R4 (NIP-01): for replaceable kinds only the latest per (pubkey, kind) is stored, and an older
    // arrival never displaces a newer one.
    @Test func r4ReplaceableKeepsOnlyTheLatestAndOlderArrivalsDoNotDisplaceIt() throws {
        var harness = RelayHarness()
        let t10 = try harness.event(.keyPackageRelays, at: 10)
        let t20 = try harness.event(.keyPackageRelays, at: 20)
        let t5 = try harness.event(.keyPackageRelays, at: 5)
        #expect(try harness.ok(t10).accepted)
        #expect(try harness.ok(t20).accepted)
        _ = try harness.ok(t5)
        #expect(try harness.query([Filter(kinds: [.keyPackageRelays])]) == [t20.id.hex])
        // Another author's list is a different slot.
        let bobs = try harness.event(.keyPackageRelays, by: harness.bob, at: 1)
        #expect(try harness.ok(bobs).accepted)
        #expect(try harness.query([Filter(kinds: [.keyPackageRelays])]) == [t20.id.hex, bobs.id.hex])
    }

    // R4 (NIP-01): kind 0 and 3 are replaceable too.
    @Test(arguments: [Kind.metadata, 3, 10002, .inboxRelays])
    func r4OtherReplaceableKinds(kind: Kind) throws {
        var harness = RelayHarness()
        let old = try harness.event(kind, at: 1)
        let new = try harness.event(kind, at: 2)
        _ = try harness.ok(old)
        _ = try harness.ok(new)
        #expect(try harness.query([Filter(kinds: [kind])]) == [new.id.hex])
    }

    // R5 (NIP-01): addressable kinds keep the latest per (kind, pubkey, d); Marmot key packages
    // are kind 30443.
    @Test func r5AddressableKeepsTheLatestPerDTag() throws {
        var harness = RelayHarness()
        let x1 = try harness.event(.keyPackage, at: 1, tags: [["d", "x"]])
        let x2 = try harness.event(.keyPackage, at: 2, tags: [["d", "x"]])
        let y = try harness.event(.keyPackage, at: 1, tags: [["d", "y"]])
        for event in [x1, x2, y] { _ = try harness.ok(event) }
        #expect(try harness.query([Filter(kinds: [.keyPackage])]) == [x2.id.hex, y.id.hex])
        #expect(try harness.query([Filter(tags: ["d": ["x"]])]) == [x2.id.hex])
    }

    // R5 (NIP-01): our rule for an addressable event without `d`: it is addressed by d = ""
    // (rust-nostr refuses it; the semantics note §4.3 item 7 leaves the choice to us).
    @Test func r5MissingDTagCountsAsEmptyIdentifier() throws {
        var harness = RelayHarness()
        let bare = try harness.event(30000, at: 1)
        let empty = try harness.event(30000, at: 2, tags: [["d", ""]])
        #expect(try harness.ok(bare).accepted)
        #expect(try harness.ok(empty).accepted)
        #expect(try harness.query([Filter(kinds: [30000])]) == [empty.id.hex])
    }

    // R6 (NIP-01): on equal created_at the lowest id is kept, whatever the arrival order.
    @Test(arguments: [false, true])
    func r6TieKeepsTheLowerIDInEitherArrivalOrder(lowerFirst: Bool) throws {
        var harness = RelayHarness()
        let a = try harness.event(.metadata, at: 3, content: "a")
        let b = try harness.event(.metadata, at: 3, content: "b")
        let (low, high) = a.id < b.id ? (a, b) : (b, a)
        for event in lowerFirst ? [low, high] : [high, low] { _ = try harness.ok(event) }
        #expect(try harness.query([Filter(kinds: [.metadata])]) == [low.id.hex])
    }

    // R6: a superseded version is answered OK false and is not broadcast.
    @Test func r6SupersededVersionIsNotBroadcast() throws {
        var harness = RelayHarness()
        _ = try harness.ok(try harness.event(.keyPackageRelays, at: 10))
        _ = try harness.request("live", [Filter(kinds: [.keyPackageRelays])], on: 2)
        let older = try harness.event(.keyPackageRelays, at: 5)
        let replies = try harness.publish(older)
        #expect(RelayHarness.eventIDs(replies).isEmpty)
        guard case .ok(_, false, let message)? = replies.first?.1 else {
            Issue.record("expected OK false, got \(replies)")
            return
        }
        #expect(prefix(message) == .blocked)
    }

    // R7 (NIP-01, NIP-59 21059): ephemeral events are delivered live and never stored.
    @Test func r7EphemeralIsDeliveredLiveButNeverStored() throws {
        var harness = RelayHarness()
        _ = try harness.request("live", [Filter(kinds: [20001])], on: 2)
        let event = try harness.event(20001)
        let replies = try harness.publish(event)
        #expect(RelayHarness.eventIDs(replies, subscription: "live", on: 2) == [event.id.hex])
        #expect(try harness.ok(event).accepted)
        #expect(harness.relay.storedEventCount == 0)
        #expect(try harness.query([Filter(kinds: [20001])]).isEmpty)
    }
}
