import ConformanceTestSupport
import InMemoryRelay
import Nostr
import Testing

/// R1–R3 and R13 of nostr-relay-semantics.md: event validity, kind classes, OK answers (NIP-01).
@Suite struct RelayEventRulesTests {
    // R1 (NIP-01): the id is the sha256 of the canonical serialization; a mismatch is "invalid:".
    @Test func r1ContentChangedAfterSigningIsRejectedAsInvalid() throws {
        var harness = RelayHarness()
        let event = try harness.event(1, content: "original")
        let forged = event.json().replacing("\"content\":\"original\"", with: "\"content\":\"changed\"")
        let replies = try harness.send("[\"EVENT\",\(forged)]")
        guard case .ok(let id, false, let message)? = replies.first?.1 else {
            Issue.record("expected OK false, got \(replies)")
            return
        }
        #expect(id == event.id.hex)
        #expect(prefix(message) == .invalid)
        #expect(harness.relay.storedEventCount == 0)
    }

    // R1 (NIP-01, BIP-340): a signature that does not verify is "invalid:".
    @Test func r1FlippedSignatureBitIsRejectedAsInvalid() throws {
        var harness = RelayHarness()
        let event = try harness.event(1)
        let sigHex = try #require(event.jsonValue.object?["sig"]?.string)
        var sig = Array(sigHex)
        sig[10] = sig[10] == "0" ? "1" : "0"
        let forged = event.json().replacing(sigHex, with: String(sig))
        let replies = try harness.send("[\"EVENT\",\(forged)]")
        guard case .ok(let id, false, let message)? = replies.first?.1 else {
            Issue.record("expected OK false, got \(replies)")
            return
        }
        #expect(id == event.id.hex && prefix(message) == .invalid)
    }

    // R2 (NIP-01): malformed but id-bearing events get OK false "invalid:" (OK "MUST be sent in
    // response to EVENT"), never only a NOTICE.
    @Test(arguments: [
        ("kind", "70000"), ("kind", "-1"), ("created_at", "\"1700000000\""), ("tags", "[[\"e\",1]]"),
        ("tags", "\"x\""), ("pubkey", "\"abcd\""), ("sig", "7"),
    ])
    func r2MalformedFieldGetsOKFalseInvalidWithTheID(field: String, replacement: String) throws {
        var harness = RelayHarness()
        let event = try harness.event(1)
        guard var object = event.jsonValue.object else { throw NostrError(.eventNotObject, "") }
        object[field] = try JSONValue(parsing: replacement)
        let replies = try harness.send("[\"EVENT\",\(JSONValue.object(object).serialized())]")
        guard case .ok(let id, false, let message)? = replies.first?.1 else {
            Issue.record("expected OK false, got \(replies)")
            return
        }
        #expect(id == event.id.hex)
        #expect(prefix(message) == .invalid)
    }

    // R2 (NIP-01): ids are lower-case hex; an upper-cased id is refused (rust-nostr accepts it).
    @Test func r2UppercaseIDIsRefused() throws {
        var harness = RelayHarness()
        let event = try harness.event(1)
        let upper = event.json().replacing(event.id.hex, with: event.id.hex.uppercased())
        let replies = try harness.send("[\"EVENT\",\(upper)]")
        guard case .ok(_, false, let message)? = replies.first?.1 else {
            Issue.record("expected OK false, got \(replies)")
            return
        }
        #expect(prefix(message) == .invalid)
    }

    // R3 (NIP-01): 443/444/445 fall in no class and are stored as regular events, as is 1059.
    @Test(arguments: [Kind.keyPackageLegacy, .welcome, .groupEvent, .giftWrap, 1, 45, 999])
    func r3UnclassifiedAndRegularKindsAreAllKept(kind: Kind) throws {
        var harness = RelayHarness()
        let first = try harness.event(kind, at: 0, content: "a")
        let second = try harness.event(kind, at: 1, content: "b")
        #expect(try harness.ok(first).accepted)
        #expect(try harness.ok(second).accepted)
        #expect(try harness.query([Filter(kinds: [kind])]) == [second.id.hex, first.id.hex])
    }

    // R13 (NIP-01): every EVENT gets OK; true with "" on success.
    @Test func r13AcceptedEventGetsOKTrueWithEmptyMessage() throws {
        var harness = RelayHarness()
        let event = try harness.event(1)
        let verdict = try harness.ok(event)
        #expect(verdict.accepted && verdict.message == "")
    }

    // R13 (NIP-01): a duplicate is acknowledged with true "duplicate:" and not broadcast again.
    @Test func r13DuplicateIsAcceptedWithPrefixAndNotRebroadcast() throws {
        var harness = RelayHarness()
        _ = try harness.request("live", [Filter(kinds: [1])], on: 2)
        let event = try harness.event(1)
        let first = try harness.publish(event)
        #expect(RelayHarness.eventIDs(first, on: 2) == [event.id.hex])
        let second = try harness.publish(event)
        #expect(RelayHarness.eventIDs(second).isEmpty)
        guard case .ok(_, true, let message)? = second.first?.1 else {
            Issue.record("expected OK true, got \(second)")
            return
        }
        #expect(prefix(message) == .duplicate)
        #expect(harness.relay.storedEventCount == 1)
    }

    // R13: the publisher's OK comes before the live EVENT on its own subscription (LR row 28).
    @Test func r13OKPrecedesTheLiveCopyOnThePublishersOwnSubscription() throws {
        var harness = RelayHarness()
        _ = try harness.request("mine", [Filter(kinds: [1])])
        let event = try harness.event(1)
        let replies = try harness.publish(event)
        guard replies.count == 2, case .ok = replies[0].1, case .event(let sub, let live) = replies[1].1 else {
            Issue.record("expected OK then EVENT, got \(replies)")
            return
        }
        #expect(sub == "mine" && live == event)
    }

    // R13: oversize events are refused with a prefix (LR: 64 KiB).
    @Test func r13OversizeEventIsRefused() throws {
        var harness = RelayHarness(policy: RelayPolicy(maximumEventBytes: 1_000))
        let verdict = try harness.ok(try harness.event(1, content: String(repeating: "x", count: 2_000)))
        #expect(!verdict.accepted && prefix(verdict.message) == .invalid)
    }
}

extension String {
    func replacing(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}

@Suite struct RelayFrameTextTests {
    // The relay writes event JSON itself for speed; it must be byte-identical to `Event.json()`.
    @Test(arguments: ["plain", "q\" b\\ n\n r\r t\t b\u{08} f\u{0C} c\u{01} del\u{7F} é ✓ / \u{1F600}", ""])
    func liveEventFrameTextEqualsTheCanonicalWireJSON(content: String) throws {
        var harness = RelayHarness()
        _ = try harness.request("s", [Filter()], on: 2)
        let event = try harness.event(1, tags: [["t", content], [], ["x", "a\"b", "\\"]], content: content)
        let output = harness.relay.receive(ClientMessage.event(event).json(), from: ConnectionID(1), now: harness.now)
        let frames = output.filter { $0.connection == ConnectionID(2) }.map(\.frame)
        #expect(frames == [RelayMessage.event(subscription: "s", event: event).json()])
    }

    /// A hung relay (`answers: false`) reads every frame and answers none, malformed ones included,
    /// and stores nothing: the same relay answering shows the frames would have been answered.
    @Test func aHungRelayAnswersNothingAndStoresNothing() throws {
        var hung = RelayHarness(
            policy: {
                var policy = RelayPolicy()
                policy.answers = false
                return policy
            }())
        let note = try hung.event(.textNote, content: "hello")
        #expect(try hung.publish(note).isEmpty)
        #expect(try hung.request("q", [Filter(kinds: [.textNote])]).isEmpty)
        #expect(try hung.send("not json").isEmpty)
        hung.relay.policy.answers = true
        #expect(try hung.query([Filter(kinds: [.textNote])]).isEmpty, "nothing was stored while hung")
        #expect(try hung.ok(note).accepted)
        #expect(try hung.query([Filter(kinds: [.textNote])]) == [note.id.hex])
    }
}
