import DeterministicScheduler
import InMemoryRelay
import Nostr
import Testing

/// A relay that ignores NIP-40 (policy `honoursExpiration: false`), and events handed to one
/// member past the relay (what scenario `inject … to:` steps use).
@Suite struct RelayInjectionTests {
    // NIP-40 is a SHOULD for relays: one that ignores it keeps serving an expired event, and still
    // accepts one that is expired on arrival.
    @Test func relayIgnoringExpirationKeepsServingExpiredEvents() throws {
        var harness = RelayHarness(policy: RelayPolicy(honoursExpiration: false))
        let expiration = RelayHarness.start + 60
        let message = try harness.event(.groupEvent, tags: [["h", "g"], ["expiration", String(expiration)]])
        #expect(try harness.ok(message).accepted)
        harness.now = expiration + 3_600
        #expect(try harness.query([Filter(tags: ["h": ["g"]])]) == [message.id.hex])
        let late = try harness.event(.groupEvent, tags: [["h", "g"], ["expiration", String(RelayHarness.start)]])
        #expect(try harness.ok(late).accepted)
    }

    @Test func handedOverEventReachesOnlyThatMembersMatchingSubscriptionsUnstored() throws {
        var world = RelayNetworkTests.World(seed: 4)
        world.subscribe("bob", to: "group", SubscriptionID("g"), [Filter(kinds: [.groupEvent])])
        world.subscribe("bob", to: "group", SubscriptionID("notes"), [Filter(kinds: [1])])
        world.subscribe("carol", to: "group", SubscriptionID("g"), [Filter(kinds: [.groupEvent])])
        world.network.runUntilIdle()
        _ = world.messages(for: "bob")
        _ = world.messages(for: "carol")
        // Content altered after signing (id and signature stale), as a corrupting path delivers it.
        let genuine = try world.event(.groupEvent, by: "alice", tags: [["h", "g1"]], content: "x")
        guard var fields = genuine.jsonValue.object else {
            Issue.record("event is not an object")
            return
        }
        fields["content"] = .string("altered")
        let forged = try Event.decodeUnverified(.object(fields))
        #expect(world.network.handOver(forged, to: "bob", via: "group") == 1)
        #expect(world.network.handOver(forged, to: "alice", via: "group") == 0)  // alice has no connection there
        world.network.runUntilIdle()
        let frames = world.network.takeDeliveries(for: "bob").compactMap { delivery -> String? in
            if case .frame(let text, _) = delivery.content { text } else { nil }
        }
        #expect(frames.count == 1)
        #expect(frames.first?.contains("\"altered\"") == true && frames.first?.hasPrefix("[\"EVENT\",\"g\",") == true)
        #expect(world.messages(for: "carol").isEmpty)
        #expect(world.network.relay("group")?.storedEventCount == 0)
    }
}
