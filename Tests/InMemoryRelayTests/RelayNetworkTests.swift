import ConformanceTestSupport
import DeterministicScheduler
import InMemoryRelay
import Nostr
import Testing

/// Several relays with roles, links with latency, and faults selected by meaning.
@Suite struct RelayNetworkTests {
    /// A world with a key-package relay and a group relay, and three registered members.
    struct World {
        var network: RelayNetwork
        var generator: TestGenerator
        var keys: [String: Keypair] = [:]

        init(seed: UInt64, jitter: UInt64 = 0) {
            network = RelayNetwork(seed: seed)
            network.jitter = VirtualDuration(microseconds: jitter)
            network.addRelay("kp", policy: RelayPolicy(role: .keyPackage))
            network.addRelay("group", policy: RelayPolicy(role: .group, acceptsProtectedEvents: false))
            generator = TestGenerator(seed: seed)
            for name in ["alice", "bob", "carol"] {
                let keypair = Keypair.generate(using: &generator)
                keys[name] = keypair
                network.register(member: name, publicKey: keypair.publicKey)
            }
        }

        mutating func event(_ kind: Kind, by member: String, tags: [[String]] = [], content: String = "") throws -> Event {
            let keypair = try #require(keys[member])
            return try UnsignedEvent(
                pubkey: keypair.publicKey, createdAt: network.unixSeconds, kind: kind, tags: tags, content: content
            ).signed(with: keypair, using: &generator)
        }

        mutating func publish(_ event: Event, by member: String, to relay: String) {
            network.send(ClientMessage.event(event).json(), from: member, to: relay)
        }

        mutating func subscribe(_ member: String, to relay: String, _ id: SubscriptionID, _ filters: [Filter]) {
            network.send(ClientMessage.request(subscription: id, filters: filters).json(), from: member, to: relay)
        }

        /// What arrived for `member`, as decoded relay messages (connection events dropped).
        mutating func messages(for member: String) -> [RelayMessage] {
            network.takeDeliveries(for: member).compactMap { delivery in
                guard case .frame(let text, _) = delivery.content else { return nil }
                return try? RelayMessage(json: text)
            }
        }
    }

    private static func oks(_ messages: [RelayMessage]) -> [(String, Bool, String)] {
        messages.compactMap { if case .ok(let id, let ok, let text) = $0 { (id, ok, text) } else { nil } }
    }

    private static func liveIDs(_ messages: [RelayMessage]) -> [String] {
        messages.compactMap { if case .event(_, let event) = $0 { event.id.hex } else { nil } }
    }

    @Test func framesTakeTheLinkLatencyAndAreAnswered() throws {
        var world = World(seed: 1)
        let note = try world.event(1, by: "alice")
        world.publish(note, by: "alice", to: "group")
        world.network.runUntilIdle()
        #expect(world.network.scheduler.now == VirtualInstant(microseconds: 40_000))
        #expect(Self.oks(world.messages(for: "alice")).map(\.1) == [true])
        #expect(world.network.relay("group")?.storedEventCount == 1)
        #expect(world.network.relay("kp")?.storedEventCount == 0)
    }

    @Test func dropSelectedByKindLosesOnlyThoseFrames() throws {
        var world = World(seed: 2)
        world.network.addFault(FaultRule(direction: .toRelay, selector: FrameSelector(kinds: [.groupEvent]), action: .drop))
        world.publish(try world.event(.groupEvent, by: "alice", tags: [["h", "g1"]]), by: "alice", to: "group")
        world.publish(try world.event(1, by: "alice"), by: "alice", to: "group")
        world.network.runUntilIdle()
        #expect(world.network.relay("group")?.storedEventCount == 1)
        #expect(world.network.trace.entries.contains { $0.category == "fault" && $0.detail.contains("drop EVENT") })
    }

    @Test func nthOccurrenceByAuthorLabelAndGroup() throws {
        var world = World(seed: 3)
        let selector = FrameSelector(authorLabel: "bob", group: "g1")
        world.network.addFault(FaultRule(direction: .toRelay, selector: selector, action: .drop, occurrences: .nth(2)))
        var sent: [Event] = []
        for index in 0..<3 {
            let event = try world.event(.groupEvent, by: "bob", tags: [["h", "g1"]], content: "\(index)")
            sent.append(event)
            world.publish(event, by: "bob", to: "group")
            world.publish(try world.event(.groupEvent, by: "alice", tags: [["h", "g1"]], content: "\(index)"), by: "alice", to: "group")
            world.publish(try world.event(.groupEvent, by: "bob", tags: [["h", "g2"]], content: "\(index)"), by: "bob", to: "group")
        }
        world.network.runUntilIdle()
        let stored = Set(world.network.relay("group")?.storedEvents(matching: [Filter()], now: world.network.unixSeconds).map(\.id) ?? [])
        #expect(stored.count == 8)
        #expect(!stored.contains(sent[1].id) && stored.contains(sent[0].id) && stored.contains(sent[2].id))
    }

    @Test func delayLetsALaterFrameOvertake() throws {
        var world = World(seed: 4)
        world.subscribe("bob", to: "group", "g", [Filter(kinds: [1])])
        world.network.runUntilIdle()
        _ = world.messages(for: "bob")
        world.network.addFault(
            FaultRule(
                scope: .link(member: "alice", relay: "group"), direction: .toRelay, selector: FrameSelector(kinds: [1]),
                action: .delay(.seconds(1)), occurrences: .first(1)))
        let first = try world.event(1, by: "alice", content: "first")
        let second = try world.event(1, by: "alice", content: "second")
        world.publish(first, by: "alice", to: "group")
        world.publish(second, by: "alice", to: "group")
        world.network.runUntilIdle()
        #expect(Self.liveIDs(world.messages(for: "bob")) == [second.id.hex, first.id.hex])
    }

    @Test func reorderSwapsWithTheNextFrameOnTheLink() throws {
        var world = World(seed: 5)
        world.subscribe("bob", to: "group", "g", [Filter(kinds: [1])])
        world.network.runUntilIdle()
        _ = world.messages(for: "bob")
        world.network.addFault(FaultRule(direction: .toRelay, selector: FrameSelector(kinds: [1]), action: .reorder, occurrences: .nth(1)))
        let first = try world.event(1, by: "alice", content: "first")
        let second = try world.event(1, by: "alice", content: "second")
        world.publish(first, by: "alice", to: "group")
        world.publish(second, by: "alice", to: "group")
        world.network.runUntilIdle()
        #expect(Self.liveIDs(world.messages(for: "bob")) == [second.id.hex, first.id.hex])
    }

    @Test func reorderedFrameIsDeliveredAfterTheTimeoutWhenNothingFollows() throws {
        var world = World(seed: 5)
        world.network.addFault(FaultRule(direction: .toRelay, action: .reorder))
        world.publish(try world.event(1, by: "alice"), by: "alice", to: "group")
        world.network.runUntilIdle()
        #expect(world.network.relay("group")?.storedEventCount == 1)
        #expect(world.network.scheduler.now >= VirtualInstant(microseconds: 1_000_000))
    }

    @Test func duplicateDeliversTwiceAndTheRelayAnswersDuplicate() throws {
        var world = World(seed: 6)
        world.network.addFault(FaultRule(direction: .toRelay, selector: FrameSelector(verbs: ["EVENT"]), action: .duplicate))
        world.publish(try world.event(1, by: "alice"), by: "alice", to: "group")
        world.network.runUntilIdle()
        let verdicts = Self.oks(world.messages(for: "alice"))
        #expect(verdicts.count == 2 && verdicts.allSatisfy(\.1))
        #expect(verdicts.last.flatMap { MachineReadablePrefix(of: $0.2) } == .duplicate)
    }

    @Test func holdKeepsFramesUntilReleased() throws {
        var world = World(seed: 7)
        world.network.addFault(FaultRule(direction: .toMember, selector: FrameSelector(verbs: ["OK"]), action: .hold("oks")))
        world.publish(try world.event(1, by: "alice"), by: "alice", to: "group")
        world.network.runUntilIdle()
        #expect(world.messages(for: "alice").isEmpty)
        #expect(world.network.relay("group")?.storedEventCount == 1)
        world.network.release(hold: "oks")
        world.network.runUntilIdle()
        #expect(Self.oks(world.messages(for: "alice")).count == 1)
    }

    @Test func rejectWithPrefixAnswersWithoutReachingTheRelay() throws {
        var world = World(seed: 8)
        world.network.addFault(
            FaultRule(
                scope: .relay("kp"), selector: FrameSelector(kinds: [.keyPackage]),
                action: .reject(prefix: .rateLimited, message: "slow down")))
        let keyPackage = try world.event(.keyPackage, by: "carol", tags: [["d", "slot"]])
        world.publish(keyPackage, by: "carol", to: "kp")
        world.network.runUntilIdle()
        let verdicts = Self.oks(world.messages(for: "carol"))
        #expect(verdicts.count == 1 && verdicts[0].0 == keyPackage.id.hex && !verdicts[0].1)
        #expect(MachineReadablePrefix(of: verdicts[0].2) == .rateLimited)
        #expect(world.network.relay("kp")?.storedEventCount == 0)
    }

    @Test func withholdOKStoresButSendsNoOK() throws {
        var world = World(seed: 9)
        world.subscribe("bob", to: "group", "all", [Filter()])
        world.network.addFault(FaultRule(selector: FrameSelector(authorLabel: "alice"), action: .withholdOK))
        let note = try world.event(1, by: "alice")
        world.publish(note, by: "alice", to: "group")
        world.network.runUntilIdle()
        #expect(Self.oks(world.messages(for: "alice")).isEmpty)
        #expect(world.network.relay("group")?.storedEventCount == 1)
        #expect(Self.liveIDs(world.messages(for: "bob")) == [note.id.hex])
    }

    /// A partition is an outage of the member's network: its connections drop (and with them its
    /// subscriptions), its sends are unreachable, and healing says every live relay is reachable again.
    @Test func partitionCutsAMemberUntilHealed() throws {
        var world = World(seed: 10)
        world.subscribe("bob", to: "group", "all", [Filter(kinds: [1])])
        world.network.runUntilIdle()
        _ = world.messages(for: "bob")
        world.network.partition("bob")
        #expect(world.network.takeDeliveries(for: "bob").map(\.content) == [.connectionLost])
        let whileCut = try world.event(1, by: "alice", content: "while cut")
        world.publish(whileCut, by: "alice", to: "group")
        world.publish(try world.event(1, by: "bob", content: "bob while cut"), by: "bob", to: "group")
        world.network.runUntilIdle()
        #expect(world.network.takeDeliveries(for: "bob").map(\.content) == [.unreachable])
        #expect(world.network.relay("group")?.storedEventCount == 1)

        world.network.heal("bob")
        let reachable = world.network.takeDeliveries(for: "bob")
        #expect(!reachable.isEmpty && reachable.allSatisfy { $0.content == .reachable })
        #expect(reachable.contains { $0.relay == "group" })
        // The old subscription died with the connection: only a new one sees history and live events.
        world.subscribe("bob", to: "group", "again", [Filter(kinds: [1])])
        world.network.runUntilIdle()
        #expect(Self.liveIDs(world.messages(for: "bob")) == [whileCut.id.hex])
        let after = try world.event(1, by: "alice", content: "after heal")
        world.publish(after, by: "alice", to: "group")
        world.network.runUntilIdle()
        #expect(Self.liveIDs(world.messages(for: "bob")) == [after.id.hex])
    }

    @Test func relayDownDropsConnectionsButKeepsStorage() throws {
        var world = World(seed: 11)
        world.publish(try world.event(1, by: "alice"), by: "alice", to: "group")
        world.subscribe("bob", to: "group", "all", [Filter(kinds: [1])])
        world.network.runUntilIdle()
        _ = world.messages(for: "bob")
        world.network.setRelay("group", up: false)
        #expect(world.network.takeDeliveries(for: "bob").map(\.content) == [.connectionLost])
        world.publish(try world.event(1, by: "alice", content: "x"), by: "alice", to: "group")
        #expect(world.network.takeDeliveries(for: "alice").last?.content == .unreachable)
        world.network.setRelay("group", up: true)
        let later = try world.event(1, by: "alice", content: "later")
        world.publish(later, by: "alice", to: "group")
        world.network.runUntilIdle()
        // Bob's subscription died with the connection.
        #expect(Self.liveIDs(world.messages(for: "bob")).isEmpty)
        #expect(world.network.relay("group")?.storedEventCount == 2)
    }

    @Test func relayPoliciesDifferPerRelay() throws {
        var world = World(seed: 12)
        let protected = try world.event(1, by: "alice", tags: [["-"]])
        world.publish(protected, by: "alice", to: "group")
        world.publish(protected, by: "alice", to: "kp")
        world.network.runUntilIdle()
        let prefixes = Self.oks(world.messages(for: "alice")).map { MachineReadablePrefix(of: $0.2) }
        #expect(Set(prefixes) == [.blocked, .authRequired])
    }

    /// A seeded run that uses every fault kind: members publish, subscribe and close at random,
    /// relays go down and up, holds are released.
    private func chaoticRun(seed: UInt64) throws -> Trace {
        var world = World(seed: seed, jitter: 5_000)
        var choices = world.network.scheduler.generator.child("script")
        world.network.addFault(FaultRule(selector: FrameSelector(kinds: [.groupEvent]), action: .duplicate, occurrences: .nth(3)))
        world.network.addFault(FaultRule(direction: .toRelay, selector: FrameSelector(authorLabel: "carol"), action: .reorder))
        world.network.addFault(
            FaultRule(direction: .toMember, selector: FrameSelector(verbs: ["EOSE"]), action: .delay(.milliseconds(300))))
        world.network.addFault(FaultRule(scope: .relay("kp"), selector: FrameSelector(kinds: [.keyPackage]), action: .hold("kp")))
        world.network.addFault(FaultRule(selector: FrameSelector(group: "g2"), action: .withholdOK, occurrences: .first(2)))
        world.network.addFault(
            FaultRule(
                scope: .link(member: "bob", relay: "group"), action: .reject(prefix: .blocked, message: "no"),
                occurrences: .nth(4)))
        let members = ["alice", "bob", "carol"]
        for step in 0..<120 {
            let member = members[Int.random(in: 0..<3, using: &choices)]
            let relay = Bool.random(using: &choices) ? "group" : "kp"
            switch Int.random(in: 0..<10, using: &choices) {
            case 0..<5:
                let kind: Kind = [.groupEvent, .keyPackage, 1, .keyPackageRelays][Int.random(in: 0..<4, using: &choices)]
                let tags = kind == .keyPackage ? [["d", "\(step % 3)"]] : [["h", Bool.random(using: &choices) ? "g1" : "g2"]]
                world.publish(try world.event(kind, by: member, tags: tags, content: "\(step)"), by: member, to: relay)
            case 5..<7: world.subscribe(member, to: relay, SubscriptionID("s\(step % 4)"), [Filter(kinds: [.groupEvent, 1], limit: 5)])
            case 7: world.network.send(ClientMessage.close(SubscriptionID("s\(step % 4)")).json(), from: member, to: relay)
            case 8: world.network.setRelay(relay, up: !world.network.isUp(relay))
            default: world.network.release(hold: "kp")
            }
            world.network.advance(by: .milliseconds(UInt64.random(in: 0...50, using: &choices)))
        }
        world.network.setRelay("group", up: true)
        world.network.setRelay("kp", up: true)
        world.network.release(hold: "kp")
        world.network.runUntilIdle()
        return world.network.trace
    }

    @Test func sameSeedGivesTheSameTraceFingerprintWithFaults() throws {
        let first = try chaoticRun(seed: 42)
        let second = try chaoticRun(seed: 42)
        #expect(first.count > 300)
        #expect(first.fingerprint == second.fingerprint)
        #expect(first.firstDivergence(from: second) == nil)
        for kind in ["duplicate", "reorder", "delay", "hold", "withhold OK", "reject", "relay down", "relay up", "release"] {
            #expect(first.entries.contains { $0.category == "fault" && $0.detail.contains(kind) }, "no \(kind) in the trace")
        }
    }

    @Test func otherSeedGivesAnotherFingerprint() throws {
        #expect(try chaoticRun(seed: 42).fingerprint != chaoticRun(seed: 43).fingerprint)
    }
}
