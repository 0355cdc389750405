import InMemoryRelay
import Nostr
import Testing

/// R8–R12 and R14 of nostr-relay-semantics.md: REQ, filters, limits, EOSE, live events, CLOSED.
@Suite struct RelaySubscriptionTests {
    // R8 (NIP-01): a REQ with an open sub id replaces it: new filters, stored replay, new EOSE.
    @Test func r8ReusedSubscriptionIDReplacesTheFilters() throws {
        var harness = RelayHarness()
        let note = try harness.event(1)
        let chat = try harness.event(9)
        _ = try harness.ok(note)
        _ = try harness.ok(chat)
        _ = try harness.request("s", [Filter(kinds: [1])], on: 2)
        let replaced = try harness.request("s", [Filter(kinds: [9])], on: 2)
        #expect(RelayHarness.eventIDs(replaced) == [chat.id.hex])
        guard case .endOfStoredEvents("s")? = replaced.last?.1 else {
            Issue.record("expected a new EOSE, got \(replaced)")
            return
        }
        let liveNote = try harness.publish(try harness.event(1, at: 1))
        #expect(RelayHarness.eventIDs(liveNote, on: 2).isEmpty)
        let liveChat = try harness.event(9, at: 1)
        #expect(RelayHarness.eventIDs(try harness.publish(liveChat), on: 2) == [liveChat.id.hex])
    }

    // R8 (NIP-01): CLOSE ends a subscription silently; unknown ids are ignored.
    @Test func r8CloseStopsLiveDeliveryWithoutReply() throws {
        var harness = RelayHarness()
        _ = try harness.request("s", [Filter(kinds: [1])], on: 2)
        #expect(try harness.send(#"["CLOSE","s"]"#, on: 2).isEmpty)
        #expect(try harness.send(#"["CLOSE","never-opened"]"#, on: 2).isEmpty)
        #expect(RelayHarness.eventIDs(try harness.publish(try harness.event(1))).isEmpty)
    }

    // R8 (NIP-01): sub ids are scoped per connection.
    @Test func r8SameSubscriptionIDOnTwoConnectionsIsTwoSubscriptions() throws {
        var harness = RelayHarness()
        _ = try harness.request("s", [Filter(kinds: [1])], on: 2)
        _ = try harness.request("s", [Filter(kinds: [1])], on: 3)
        _ = try harness.send(#"["CLOSE","s"]"#, on: 2)
        let event = try harness.event(1)
        let replies = try harness.publish(event)
        #expect(RelayHarness.eventIDs(replies, on: 2).isEmpty)
        #expect(RelayHarness.eventIDs(replies, on: 3) == [event.id.hex])
    }

    // R8 + R14 (NIP-01): an empty or over-long sub id is refused with CLOSED "invalid:".
    @Test(arguments: ["", String(repeating: "s", count: 65)])
    func r8InvalidSubscriptionIDGetsClosed(id: String) throws {
        var harness = RelayHarness()
        let replies = try harness.send("[\"REQ\",\"\(id)\",{}]")
        guard case .closed(let sub, let message)? = replies.first?.1, replies.count == 1 else {
            Issue.record("expected CLOSED, got \(replies)")
            return
        }
        #expect(sub.rawValue == id && prefix(message) == .invalid)
    }

    // R9 (NIP-01): filters of one REQ are OR'd, results deduplicated in one newest-first order.
    @Test func r9MultipleFiltersAreUnionedAndDeduplicated() throws {
        var harness = RelayHarness()
        let note = try harness.event(1, at: 1, tags: [["t", "x"]])
        let chat = try harness.event(9, at: 2)
        let other = try harness.event(7, at: 3)
        for event in [note, chat, other] { _ = try harness.ok(event) }
        let ids = try harness.query([Filter(kinds: [1]), Filter(kinds: [9]), Filter(tags: ["t": ["x"]])])
        #expect(ids == [chat.id.hex, note.id.hex])
    }

    // R9 (NIP-01): since and until are both inclusive, in queries and live.
    @Test func r9SinceAndUntilAreInclusive() throws {
        var harness = RelayHarness()
        let events = try (0..<5).map { try harness.event(1, at: Int64($0), content: "\($0)") }
        for event in events { _ = try harness.ok(event) }
        let start = RelayHarness.start
        let ids = try harness.query([Filter(since: start + 1, until: start + 3)])
        #expect(ids == [events[3].id.hex, events[2].id.hex, events[1].id.hex])
    }

    // R10 (NIP-01): prefixes are not allowed in ids/authors; the REQ is refused with CLOSED.
    @Test func r10PrefixIDsAreRefusedWithClosed() throws {
        var harness = RelayHarness()
        let replies = try harness.send(#"["REQ","p",{"ids":["abcdef"]}]"#)
        guard case .closed("p", let message)? = replies.first?.1, replies.count == 1 else {
            Issue.record("expected CLOSED, got \(replies)")
            return
        }
        #expect(prefix(message) == .invalid)
    }

    // R10 (NIP-01): only the first value of a tag is indexed; tag names are case-sensitive.
    @Test func r10OnlyTheFirstTagValueIsIndexed() throws {
        var harness = RelayHarness()
        let message = try harness.event(.groupEvent, tags: [["h", "g3", "g5"]])
        _ = try harness.ok(message)
        #expect(try harness.query([Filter(tags: ["h": ["g3"]])]) == [message.id.hex])
        #expect(try harness.query([Filter(tags: ["h": ["g5"]])]).isEmpty)
        #expect(try harness.query([Filter(tags: ["H": ["g3"]])]).isEmpty)
    }

    // R11 (NIP-01): limit n gives the newest n, ties by lower id first; limit 0 gives only EOSE.
    @Test func r11LimitTakesTheNewestWithTiesByLowerID() throws {
        var harness = RelayHarness()
        let tied = try (0..<4).map { try harness.event(1, at: 5, content: "tie \($0)") }
        let older = try harness.event(1, at: 1)
        for event in tied + [older] { _ = try harness.ok(event) }
        let sortedTies = tied.map(\.id.hex).sorted()
        #expect(try harness.query([Filter(limit: 2)]) == Array(sortedTies.prefix(2)))
        #expect(try harness.query([Filter()]) == sortedTies + [older.id.hex])
        let zero = try harness.request("z", [Filter(limit: 0)])
        #expect(zero.count == 1)
        guard case .endOfStoredEvents("z")? = zero.first?.1 else {
            Issue.record("expected only EOSE, got \(zero)")
            return
        }
    }

    // R11 (NIP-01): limit applies per filter, then the union is ordered once.
    @Test func r11LimitIsPerFilter() throws {
        var harness = RelayHarness()
        let notes = try (0..<3).map { try harness.event(1, at: Int64($0)) }
        let chats = try (0..<3).map { try harness.event(9, at: Int64($0) + 10) }
        for event in notes + chats { _ = try harness.ok(event) }
        let ids = try harness.query([Filter(kinds: [1], limit: 1), Filter(kinds: [9], limit: 2)])
        #expect(ids == [chats[2].id.hex, chats[1].id.hex, notes[2].id.hex])
    }

    // R11 (NIP-01): limit "MUST be ignored" for live events.
    @Test func r11LimitIsIgnoredForLiveEvents() throws {
        var harness = RelayHarness()
        _ = try harness.request("s", [Filter(kinds: [1], limit: 1)], on: 2)
        var delivered: [String] = []
        for offset in 0..<3 {
            delivered += RelayHarness.eventIDs(try harness.publish(try harness.event(1, at: Int64(offset))), on: 2)
        }
        #expect(delivered.count == 3)
    }

    // R12 (NIP-01): stored events, then EOSE, then live matches; since/until still apply live.
    @Test func r12StoredThenEOSEThenLiveWithTimeBoundsStillApplied() throws {
        var harness = RelayHarness()
        let stored = try harness.event(1, at: 0)
        _ = try harness.ok(stored)
        let opened = try harness.request("s", [Filter(kinds: [1], since: RelayHarness.start)], on: 2)
        #expect(opened.count == 2)
        guard case .event("s", stored)? = opened.first?.1, case .endOfStoredEvents("s")? = opened.last?.1 else {
            Issue.record("expected EVENT then EOSE, got \(opened)")
            return
        }
        let backdated = try harness.event(1, at: -10)
        #expect(RelayHarness.eventIDs(try harness.publish(backdated), on: 2).isEmpty)
        let fresh = try harness.event(1, at: 1)
        #expect(RelayHarness.eventIDs(try harness.publish(fresh), on: 2) == [fresh.id.hex])
    }

    // R12 (NIP-01): EVENT is sent only for subscriptions the client opened.
    @Test func r12NoEventsWithoutASubscription() throws {
        var harness = RelayHarness()
        _ = try harness.send(#"["CLOSE","x"]"#, on: 2)
        let replies = try harness.publish(try harness.event(1))
        #expect(replies.allSatisfy { $0.0 == ConnectionID(1) })
    }

    // R14 (NIP-01): a refused REQ gets CLOSED with a prefix (here: too many subscriptions).
    @Test func r14TooManySubscriptionsGetsClosedRateLimited() throws {
        var harness = RelayHarness(policy: RelayPolicy(maximumSubscriptionsPerConnection: 2))
        _ = try harness.request("a", [Filter()])
        _ = try harness.request("b", [Filter()])
        let replies = try harness.request("c", [Filter()])
        guard case .closed("c", let message)? = replies.first?.1 else {
            Issue.record("expected CLOSED, got \(replies)")
            return
        }
        #expect(prefix(message) == .rateLimited)
        // Replacing an open one is still allowed.
        guard case .endOfStoredEvents("b")? = try harness.request("b", [Filter()]).last?.1 else {
            Issue.record("replacing an open subscription was refused")
            return
        }
    }

    // NIP-45: COUNT counts matches, ignoring limit.
    @Test func countIgnoresLimit() throws {
        var harness = RelayHarness()
        for offset in 0..<3 { _ = try harness.ok(try harness.event(1, at: Int64(offset))) }
        let replies = try harness.send(#"["COUNT","c",{"kinds":[1],"limit":1}]"#)
        #expect(replies.first?.1 == .count(subscription: "c", count: 3))
    }
}
