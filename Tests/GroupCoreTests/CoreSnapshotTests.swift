import ConformanceTestSupport
import GroupCore
import Nostr
import Testing

/// A core's persisted state (docs/core-state-format.md): what a restarted core is made from, and
/// the typed refusal of a file it cannot use.
@Suite struct CoreSnapshotTests {
    /// A second core for the harness's member, as the world makes one at a restart.
    private func restartedCore(of harness: CoreHarness, seed: UInt64) -> GroupCore {
        let configuration = CoreConfiguration(
            keypair: harness.keypair, profileName: "me", discoveryRelays: [CoreHarness.discovery],
            keyPackageRelays: [CoreHarness.keyPackages], inboxRelays: [CoreHarness.inbox], groupRelays: [CoreHarness.group],
            behaviour: .init(publishesKeyPackage: false))
        return GroupCore(configuration: configuration, engine: RefusingEngine(), generator: TestGenerator(seed: seed))
    }

    private func publishedKinds(_ effects: [CoreEffect]) -> [Kind] {
        effects.compactMap { if case .send(_, .event(let event)) = $0 { event.kind } else { nil } }
    }

    private func requests(_ effects: [CoreEffect]) -> [String] {
        effects.compactMap { if case .send(let url, .request(let subscription, _)) = $0 { "\(subscription.rawValue)@\(url)" } else { nil } }
            .sorted()
    }

    /// Restored from its bytes, a core shows the state it had, resumes instead of coming online anew
    /// (no profile published again) and puts its subscriptions back.
    @Test func restoredCoreResumesWhereItStopped() async throws {
        var harness = CoreHarness(seed: 40)
        await harness.handle(.start)
        await harness.frame(.endOfStoredEvents("inbox"), from: CoreHarness.inbox)
        let before = await harness.state()
        let bytes = try await harness.core.snapshot().encoded()

        let restarted = restartedCore(of: harness, seed: 41)
        try await restarted.restore(try CoreSnapshot(decoding: bytes))
        #expect(await restarted.state() == before)
        let resumed = await restarted.handle(.start, now: harness.now + 5)
        #expect(publishedKinds(resumed).isEmpty)
        #expect(requests(resumed) == ["dir@\(CoreHarness.discovery)", "inbox@\(CoreHarness.inbox)"])
        // Nothing the UI shows changed: no update, and the next one will carry the next rev.
        #expect(!resumed.contains { if case .update = $0 { true } else { false } })
        #expect(await restarted.state() == before)
        // A core restored once has started: restoring again is refused.
        await #expect(throws: CoreError(.busy, "")) { try await restarted.restore(try CoreSnapshot(decoding: bytes)) }

        // The twin: the same member's core without the state comes online as a new install does.
        let fresh = restartedCore(of: harness, seed: 42)
        #expect(!publishedKinds(await fresh.handle(.start, now: harness.now + 5)).isEmpty)
    }

    /// A timer running when the member stopped is started again for as long as it was set for, and
    /// a key-package lookup in flight asks again (its subscription died with the connection); a
    /// resubscription timer is not started again: every subscription is put back at once.
    @Test func runningTimersAndLookupsStartAgain() async throws {
        var harness = CoreHarness(seed: 43)
        await harness.handle(.start)
        let peer = Keypair.generate(using: &harness.generator)
        await harness.handle(.action(.createGroup(peers: [peer.publicKey], name: "x", description: "", onPartialFailure: .proceed)))
        let lookup = try #require(harness.keyPackageRequests(for: peer.publicKey).first)
        await harness.handle(.relayUnreachable(url: CoreHarness.inbox))
        let running = harness.effects.compactMap { if case .startTimer(let token, let ms) = $0 { "\(token) \(ms)" } else { nil } }
        #expect(running.count == 2)

        let restarted = restartedCore(of: harness, seed: 44)
        try await restarted.restore(try CoreSnapshot(decoding: try await harness.core.snapshot().encoded()))
        let resumed = await restarted.handle(.start, now: harness.now + 5)
        let started = resumed.compactMap { if case .startTimer(let token, let ms) = $0 { "\(token) \(ms)" } else { nil } }
        #expect(started == [running[0]])
        #expect(requests(resumed).contains("\(lookup.subscription.rawValue)@\(lookup.url)"))
        #expect(requests(resumed).contains("inbox@\(CoreHarness.inbox)"))
    }

    /// The file's fields are the snapshot's, version 1's, whatever values the core groups its state
    /// in (docs/core-state-format.md): renaming one is a format change and needs a new version.
    @Test func theFileKeepsVersionOnesFields() async throws {
        var harness = CoreHarness(seed: 47)
        await harness.handle(.start)
        guard case .object(let fields) = try JSONValue(parsing: try await harness.core.snapshot().encoded()) else {
            Issue.record("the snapshot is not a JSON object")
            return
        }
        let expected = [
            "acknowledgementWatches", "adminInvitations", "busy", "channels", "chatEvents", "chats", "commits", "currentChatID",
            "decisions", "declinedDirectMessages", "deferredCommits", "directory", "epochEnteredAt", "errors",
            "eventsWhileRemoved", "failedPeers", "fetches", "forgedInvitationRoles", "futureEvents", "invitationQueues",
            "invitationRoles", "joinResults", "keyPackageAuthors", "leaveProposals", "leaveRequested", "leavingAfterStepDown",
            "nextAcknowledgementToken", "nextNumber", "notifications", "openPage", "outbox", "publicKey", "published",
            "publishes", "rejections", "seenEvents", "settling", "stood", "timers", "version", "ownKeyPackages",
        ]
        // `currentChatID` is absent while no chat is open, `ownKeyPackages` while the core published
        // no key package (this harness publishes none): an optional encodes as no field.
        #expect(fields.keys.sorted() == expected.filter { $0 != "currentChatID" && $0 != "ownKeyPackages" }.sorted())
        #expect(fields["version"] == .number("1"))
    }

    @Test func unreadableFilesAreTypedErrors() async throws {
        var harness = CoreHarness(seed: 45)
        await harness.handle(.start)
        let bytes = try await harness.core.snapshot().encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        let cases: [(String, [UInt8])] = [
            ("not a state snapshot", Array("not json".utf8)),
            ("not a state snapshot", Array(bytes.prefix(bytes.count / 2))),
            ("has version 99", Array(text.replacing("\"version\":1", with: "\"version\":99").utf8)),
            ("damaged", Array(text.replacing("\"nextNumber\":", with: "\"nextNumber\":\"x\",\"_\":").utf8)),
        ]
        for (reason, damaged) in cases {
            #expect(throws: CoreError(.stateUnreadable, "")) { try CoreSnapshot(decoding: damaged) }
            do { _ = try CoreSnapshot(decoding: damaged) } catch {
                #expect(error.reason.contains(reason), "\(error.reason)")
            }
        }
        // A bad key inside (not a curve point) fails as the wire decoder would.
        let key = harness.keypair.publicKey.hex
        let badKey = text.replacing(key, with: String(repeating: "f", count: 64))
        #expect(throws: CoreError(.stateUnreadable, "")) { try CoreSnapshot(decoding: Array(badKey.utf8)) }

        // Another member's state is refused by the core.
        let other = CoreHarness(seed: 46)
        await #expect(throws: CoreError(.stateUnreadable, "")) { try await other.core.restore(try CoreSnapshot(decoding: bytes)) }
    }
}
