import ConformanceTestSupport
import GroupCore
import Nostr
import Testing

/// Every way an invitee's key package can be unusable gets its own reason.
@Suite struct KeyPackageClassificationTests {
    @Test func eachFailureIsClassifiedAndAllFailingCreatesNothing() async throws {
        var harness = CoreHarness(seed: 1)
        await harness.handle(.start)
        let peers = (0..<8).map { _ in Keypair.generate(using: &harness.generator) }
        // The sixth peer lists its own key-package relay, which will be unreachable.
        let down = "wss://down.test"
        let relayList = try UnsignedEvent(
            pubkey: peers[5].publicKey, createdAt: harness.now, kind: .keyPackageRelays, tags: [["relay", down]], content: ""
        ).signed(with: peers[5], using: &harness.generator)
        await harness.frame(.event(subscription: "dir", event: relayList), from: CoreHarness.discovery)

        await harness.handle(
            .action(
                .createGroup(
                    peers: peers.map(\.publicKey), name: "x", description: "", onPartialFailure: .proceed)))
        let requests = peers.map { harness.keyPackageRequests(for: $0.publicKey) }
        #expect(requests.map(\.count) == Array(repeating: 1, count: 8), "one lookup per invitee, all at once")
        #expect(requests[5].first?.url == down && requests[0].first?.url == CoreHarness.keyPackages)

        let offers: [Event?] = [
            try harness.keyPackage(by: peers[0]) { $0[2] = ["mls_ciphersuite", "0x0002"] },
            try harness.keyPackage(by: peers[1]) { $0[3] = ["mls_extensions", "0x000a"] },
            try harness.keyPackage(by: peers[2]) { $0.append(["expiration", "1699999000"]) },
            nil,
            try harness.keyPackage(by: peers[4]),
            nil, nil,
            try harness.keyPackage(by: peers[7]),
        ]
        for (index, offer) in offers.enumerated() where index != 5 && index != 6 {
            let (url, subscription) = try #require(requests[index].first)
            if let offer {
                var frame = RelayMessage.event(subscription: subscription, event: offer).json()
                if index == 4 { frame = frame.replacingOccurrences(of: "AAEAAS", with: "AAEAAT") }
                await harness.handle(.relayFrame(url: url, frame: frame))
            }
            await harness.frame(.endOfStoredEvents(subscription), from: url)
        }
        await harness.handle(.relayUnreachable(url: down))
        #expect(await harness.state().busy.map(\.kind) == ["fetchKeyPackages"], "the seventh peer is still silent")
        await harness.handle(.timer(try #require(harness.timers.first)))

        let state = await harness.state()
        let reasons = state.failedPeers.map(\.reason)
        #expect(
            reasons == [
                .wrongCiphersuite, .missingExtensions, .expired, .noKeyPackage, .invalidSignature, .relayDown, .timeout,
                .invalidKeyPackage,
            ])
        #expect(state.failedPeers.map(\.pubkey) == peers.map(\.publicKey))
        #expect(state.failedPeers[4].detail.contains(NostrError.Code.eventIDMismatch.name))
        #expect(state.failedPeers[7].detail.contains("engine_unavailable"))
        #expect(state.errors.map(\.code) == [.allPeersFailed])
        #expect(state.chatList.isEmpty && state.busy.isEmpty)
        let closed = harness.effects.contains { if case .send(_, .close(requests[6][0].subscription)) = $0 { true } else { false } }
        #expect(closed, "the timed-out lookup is closed")
        await harness.checkUpdates()
    }

    @Test func theFirstProblemIsReportedAndAnAuthorMismatchIsInvalid() async throws {
        var harness = CoreHarness(seed: 2)
        await harness.handle(.start)
        let peer = Keypair.generate(using: &harness.generator)
        await harness.handle(.action(.createChat(peer: peer.publicKey)))
        let (url, subscription) = try #require(harness.keyPackageRequests(for: peer.publicKey).first)
        // Only the first problem is reported, and an author mismatch is an invalid key package.
        let stranger = Keypair.generate(using: &harness.generator)
        await harness.frame(.event(subscription: subscription, event: try harness.keyPackage(by: stranger)), from: url)
        await harness.frame(
            .event(
                subscription: subscription,
                event: try harness.keyPackage(by: peer) {
                    $0[2] = ["mls_ciphersuite", "0x0003"]
                }), from: url)
        await harness.frame(.endOfStoredEvents(subscription), from: url)
        let state = await harness.state()
        #expect(state.failedPeers.map(\.reason) == [.invalidKeyPackage])
        #expect(state.errors.map(\.code) == [.allPeersFailed])
        await harness.checkUpdates()
    }
}
