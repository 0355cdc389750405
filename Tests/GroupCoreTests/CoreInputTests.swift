import ConformanceTestSupport
import GroupCore
import Nostr
import Testing

/// The core's own rules: start, refusals by typed code, duplicates, hostile frames.
@Suite struct CoreInputTests {
    @Test func startPublishesProfileAndRelayListsAndSubscribes() async throws {
        var harness = CoreHarness(seed: 10)
        await harness.handle(.start)
        let published = harness.effects.compactMap { effect -> (String, Event)? in
            if case .send(let url, .event(let event)) = effect { (url, event) } else { nil }
        }
        #expect(published.map(\.0) == Array(repeating: CoreHarness.discovery, count: 3))
        let events = published.map(\.1)
        #expect(events.map(\.kind) == [.metadata, .inboxRelays, .keyPackageRelays])
        #expect(events.allSatisfy { $0.pubkey == harness.keypair.publicKey && $0.createdAt == harness.now })
        for event in events { try event.verify() }
        #expect(try JSONValue(parsing: events[0].content).object?["name"]?.string == "me")
        #expect(events[1].tags == [["relay", CoreHarness.inbox]])
        #expect(events[2].tags == [["relay", CoreHarness.keyPackages]])
        let inbox = harness.effects.contains {
            guard case .send(CoreHarness.inbox, .request(_, let filters)) = $0 else { return false }
            return filters == [Filter(kinds: [.giftWrap], tags: ["p": [harness.keypair.publicKey.hex]])]
        }
        #expect(inbox, "gift wraps are fetched by #p on our inbox relays")
        // A second start changes nothing.
        #expect(await harness.handle(.start).isEmpty)
        await harness.checkUpdates()
    }

    @Test func refusalsCarryTheirCodes() async throws {
        var harness = CoreHarness(seed: 11)
        let unknown = String(repeating: "0", count: 64)
        await harness.handle(.action(.sendMessage(chatID: unknown, text: "early")))
        await harness.handle(.start)
        await harness.handle(.action(.sendMessage(chatID: unknown, text: "nowhere")))
        await harness.handle(.action(.openChat(chatID: unknown)))
        await harness.handle(
            .action(
                .createGroup(
                    peers: [harness.keypair.publicKey], name: "me alone", description: "", onPartialFailure: .proceed)))
        await harness.handle(.action(.createGroup(peers: [], name: "nobody", description: "", onPartialFailure: .proceed)))
        // Paging, describing, moving and self-updating name a chat that must exist (and be open).
        await harness.handle(.action(.loadOlderMessages(chatID: unknown)))
        await harness.handle(.action(.updateDescription(chatID: unknown, description: "d")))
        await harness.handle(.action(.updateRelays(chatID: unknown, relays: ["wss://r"])))
        await harness.handle(.action(.selfUpdate(chatID: unknown)))
        #expect(
            await harness.state().errors.map(\.code) == [
                .notStarted, .unknownChat, .unknownChat, .invalidAction, .invalidAction,
                .invalidAction, .unknownChat, .unknownChat, .unknownChat,
            ])
        // The engine's refusal of our own key package is reported with the engine's code.
        var publishing = CoreHarness(seed: 12, publishesKeyPackage: true)
        await publishing.handle(.start)
        let errors = await publishing.state().errors
        #expect(errors.map(\.code) == [.engine] && errors.map(\.engineCode) == [.engineUnavailable])
        await harness.checkUpdates()
        await publishing.checkUpdates()
    }

    @Test func duplicateDeliveriesAreIgnoredAndBadWrapsRejectedByCode() async throws {
        var harness = CoreHarness(seed: 13)
        await harness.handle(.start)
        let stranger = Keypair.generate(using: &harness.generator)
        let someoneElse = Keypair.generate(using: &harness.generator)
        let rumor = UnsignedEvent(pubkey: stranger.publicKey, createdAt: harness.now, kind: .chatMessage, content: "not a welcome")
        let toUs = try GiftWrap.wrap(
            rumor: rumor, sender: stranger, recipient: harness.keypair.publicKey, now: harness.now, using: &harness.generator)
        let notToUs = try GiftWrap.wrap(
            rumor: rumor, sender: stranger, recipient: someoneElse.publicKey, now: harness.now, using: &harness.generator)
        let expectedCode: NostrError.Code
        do {
            _ = try GiftWrap.unwrap(notToUs, recipient: harness.keypair)
            Issue.record("a wrap for someone else opened")
            return
        } catch {
            expectedCode = error.code
        }
        for wrap in [toUs, toUs, notToUs, notToUs] {
            await harness.frame(.event(subscription: "inbox", event: wrap), from: CoreHarness.inbox)
        }
        // The same wrap from a second relay is a duplicate too.
        await harness.frame(.event(subscription: "inbox", event: toUs), from: CoreHarness.discovery)
        let rejections = await harness.state().rejections
        #expect(rejections.map(\.reason) == ["core.unexpectedRumorKind", expectedCode.name])
        #expect(rejections.map(\.eventID) == [toUs.id.hex, notToUs.id.hex])
        await harness.checkUpdates()
    }

    /// Hostile relay frames (prefixes and byte mutants of real ones) and stray timers never crash
    /// the core, and every update still advances rev by one.
    @Test(arguments: [UInt64(20), 21, 22])
    func hostileFramesKeepRevsAndStateConsistent(seed: UInt64) async throws {
        var harness = CoreHarness(seed: seed)
        await harness.handle(.start)
        let peer = Keypair.generate(using: &harness.generator)
        await harness.handle(.action(.createChat(peer: peer.publicKey)))
        let (url, subscription) = try #require(harness.keyPackageRequests(for: peer.publicKey).first)
        let valid = [
            RelayMessage.event(subscription: subscription, event: try harness.keyPackage(by: peer)).json(),
            RelayMessage.event(subscription: "inbox", event: try harness.keyPackage(by: peer)).json(),
            RelayMessage.ok(eventID: String(repeating: "1", count: 64), accepted: true, message: "").json(),
            RelayMessage.endOfStoredEvents(subscription).json(),
        ]
        var generator = TestGenerator(seed: seed)
        for frame in valid {
            let bytes = Array(frame.utf8)
            let hostile =
                Mutations.properPrefixes(of: bytes).map(Array.init)
                + Mutations.mutants(of: bytes, count: 40, using: &generator)
            for input in hostile {
                await harness.handle(.relayFrame(url: url, frame: String(decoding: input, as: UTF8.self)))
            }
            await harness.handle(.timer(TimerToken(generator.next())))
            await harness.handle(.relayUnreachable(url: "wss://nowhere.test"))
        }
        for timer in harness.timers { await harness.handle(.timer(timer)) }
        await harness.checkUpdates()
        #expect(await harness.state().busy.isEmpty)
    }
}
