import InMemoryRelay
import Nostr
import Testing

/// R18–R21 of nostr-relay-semantics.md: NIP-70 protected events, NIP-42 AUTH, NIP-59 gift wraps.
@Suite struct RelayAuthTests {
    // R18 (NIP-70): by default a protected event is refused until its author authenticates; the
    // relay sends a challenge and answers "auth-required:".
    @Test func r18ProtectedEventWithoutAuthGetsChallengeAndAuthRequired() throws {
        var harness = RelayHarness()
        let event = try harness.event(.groupEvent, tags: [["-"]])
        let replies = try harness.publish(event)
        guard replies.count == 2, case .auth(let challenge) = replies[0].1, case .ok(_, false, let message) = replies[1].1 else {
            Issue.record("expected AUTH then OK false, got \(replies)")
            return
        }
        #expect(challenge == harness.relay.challenge(for: ConnectionID(1)))
        #expect(prefix(message) == .authRequired)
        #expect(harness.relay.storedEventCount == 0)
    }

    // R18 (NIP-70): after AUTH as the author the protected event is accepted; another key gets
    // "restricted:".
    @Test func r18ProtectedEventAcceptedOnlyFromTheAuthenticatedAuthor() throws {
        var harness = RelayHarness()
        #expect(try harness.authenticate(harness.alice).accepted)
        #expect(try harness.ok(try harness.event(1, tags: [["-"]])).accepted)
        let bobs = try harness.ok(try harness.event(1, by: harness.bob, tags: [["-"]]))
        #expect(!bobs.accepted && prefix(bobs.message) == .restricted)
    }

    // R18: a relay whose policy rejects protected events refuses them even after AUTH.
    @Test func r18PolicyRejectingProtectedEventsRefusesEvenAfterAuth() throws {
        var harness = RelayHarness(policy: RelayPolicy(acceptsProtectedEvents: false))
        _ = try harness.authenticate(harness.alice)
        let verdict = try harness.ok(try harness.event(1, tags: [["-"]]))
        #expect(!verdict.accepted && prefix(verdict.message) == .blocked)
    }

    // R19 (NIP-42): a correct AUTH is answered OK true.
    @Test func r19ValidAuthIsAccepted() throws {
        var harness = RelayHarness()
        let verdict = try harness.authenticate(harness.alice)
        #expect(verdict.accepted && verdict.message == "")
        #expect(harness.relay.authenticatedKeys(of: ConnectionID(1)) == [harness.alice.publicKey.hex])
    }

    // R19 (NIP-42): wrong challenge, wrong relay, stale created_at or wrong kind get OK false
    // "auth-required:" and authenticate nobody.
    @Test(arguments: ["challenge", "relay", "stale", "future", "kind", "otherConnection"])
    func r19InvalidAuthIsRefused(defect: String) throws {
        var harness = RelayHarness()
        let auth: Event
        switch defect {
        case "challenge": auth = try harness.authEvent(by: harness.alice, challenge: "not-the-challenge")
        case "relay": auth = try harness.authEvent(by: harness.alice, relayTag: "wss://elsewhere.test")
        case "stale": auth = try harness.authEvent(by: harness.alice, at: -3_600)
        case "future": auth = try harness.authEvent(by: harness.alice, at: 3_600)
        case "kind": auth = try harness.authEvent(by: harness.alice, kind: 1)
        default: auth = try harness.authEvent(by: harness.alice, on: 7)
        }
        let replies = try harness.send(ClientMessage.auth(auth).json())
        guard case .ok(let id, false, let message)? = replies.first?.1 else {
            Issue.record("expected OK false, got \(replies)")
            return
        }
        #expect(id == auth.id.hex && prefix(message) == .authRequired)
        #expect(harness.relay.authenticatedKeys(of: ConnectionID(1)).isEmpty)
    }

    // R19 (NIP-42): the relay tag check is a host match, ignoring scheme, path and case.
    @Test func r19RelayTagMatchesByHost() throws {
        var harness = RelayHarness()
        let auth = try harness.authEvent(by: harness.alice, relayTag: "ws://RELAY.test:443/path")
        guard case .ok(_, true, _)? = try harness.send(ClientMessage.auth(auth).json()).first?.1 else {
            Issue.record("host-matching relay tag was refused")
            return
        }
    }

    // R20 (NIP-42): several AUTHs with different keys on one connection all count.
    @Test func r20SeveralKeysMayAuthenticateOnOneConnection() throws {
        var harness = RelayHarness()
        #expect(try harness.authenticate(harness.alice).accepted)
        #expect(try harness.authenticate(harness.bob).accepted)
        #expect(try harness.ok(try harness.event(1, by: harness.alice, tags: [["-"]])).accepted)
        #expect(try harness.ok(try harness.event(1, by: harness.bob, tags: [["-"]])).accepted)
    }

    // R20 (NIP-42): kind 22242 "MUST NOT be broadcast"; sent as EVENT it is refused.
    @Test func r20AuthKindSentAsEventIsRefusedAndNotBroadcast() throws {
        var harness = RelayHarness()
        _ = try harness.request("all", [Filter()], on: 2)
        let auth = try harness.authEvent(by: harness.alice)
        let replies = try harness.publish(auth)
        #expect(RelayHarness.eventIDs(replies).isEmpty)
        guard case .ok(_, false, let message)? = replies.first?.1 else {
            Issue.record("expected OK false, got \(replies)")
            return
        }
        #expect(prefix(message) == .blocked)
    }

    // R21 (NIP-59): kind 1059 is routed by its `p` tag, without AUTH by default.
    @Test func r21GiftWrapsAreServedByPTag() throws {
        var harness = RelayHarness()
        let wrap = try harness.event(.giftWrap, by: harness.carol, tags: [["p", harness.bob.publicKey.hex]])
        _ = try harness.request("inbox", [Filter(kinds: [.giftWrap], tags: ["p": [harness.bob.publicKey.hex]])], on: 2)
        #expect(RelayHarness.eventIDs(try harness.publish(wrap), on: 2) == [wrap.id.hex])
        #expect(try harness.query([Filter(tags: ["p": [harness.bob.publicKey.hex]])]) == [wrap.id.hex])
        #expect(try harness.query([Filter(tags: ["p": [harness.alice.publicKey.hex]])]).isEmpty)
    }

    // R21 (NIP-59): with `giftWrapsRequireAuth`, only the authenticated recipient gets the wrap.
    @Test func r21GiftWrapsCanRequireTheRecipientsAuth() throws {
        var harness = RelayHarness(policy: RelayPolicy(giftWrapsRequireAuth: true))
        let bobKey = harness.bob.publicKey.hex
        let wrap = try harness.event(.giftWrap, by: harness.carol, tags: [["p", bobKey]])
        _ = try harness.ok(wrap)
        let anonymous = try harness.request("x", [Filter(tags: ["p": [bobKey]])], on: 2)
        #expect(RelayHarness.eventIDs(anonymous).isEmpty)
        #expect(try harness.authenticate(harness.alice, on: 3).accepted)
        #expect(RelayHarness.eventIDs(try harness.request("x", [Filter(tags: ["p": [bobKey]])], on: 3)).isEmpty)
        #expect(try harness.authenticate(harness.bob, on: 4).accepted)
        let recipient = try harness.request("x", [Filter(tags: ["p": [bobKey]])], on: 4)
        #expect(RelayHarness.eventIDs(recipient) == [wrap.id.hex])
        let second = try harness.event(.giftWrap, by: harness.carol, at: 1, tags: [["p", bobKey]])
        let live = try harness.publish(second)
        #expect(RelayHarness.eventIDs(live, on: 2).isEmpty && RelayHarness.eventIDs(live, on: 3).isEmpty)
        #expect(RelayHarness.eventIDs(live, on: 4) == [second.id.hex])
    }
}
