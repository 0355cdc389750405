import GroupCore
import Nostr
import Testing

/// Subscriptions die with a lost connection; the core puts them back with backoff.
@Suite struct ReconnectTests {
    private func resubscribeTimers(_ effects: [CoreEffect]) -> [(TimerToken, UInt64)] {
        effects.compactMap { if case .startTimer(let token, let ms) = $0 { (token, ms) } else { nil } }
    }

    private func inboxRequests(_ effects: [CoreEffect]) -> Int {
        effects.filter { if case .send(CoreHarness.inbox, .request("inbox", _)) = $0 { true } else { false } }.count
    }

    @Test func lostInboxIsResubscribedWithBackoffUntilItAnswers() async throws {
        var harness = CoreHarness(seed: 30)
        await harness.handle(.start)
        var delays: [UInt64] = []
        for attempt in 0..<3 {
            let lost = await harness.handle(.relayUnreachable(url: CoreHarness.inbox))
            let (token, delay) = try #require(resubscribeTimers(lost).first, "attempt \(attempt)")
            delays.append(delay)
            // Another failure while a retry is pending schedules nothing more.
            #expect(resubscribeTimers(await harness.handle(.relayUnreachable(url: CoreHarness.inbox))).isEmpty)
            #expect(inboxRequests(await harness.handle(.timer(token))) == 1)
        }
        #expect(delays == [1_000, 2_000, 4_000])

        // The relay answers: the next loss starts over at one second.
        await harness.frame(.endOfStoredEvents("inbox"), from: CoreHarness.inbox)
        let lost = await harness.handle(.relayUnreachable(url: CoreHarness.inbox))
        #expect(resubscribeTimers(lost).map(\.1) == [1_000])
        await harness.checkUpdates()
    }

    @Test func givesUpAfterSixAttemptsAndIgnoresRelaysWithoutSubscriptions() async throws {
        var harness = CoreHarness(seed: 31)
        await harness.handle(.start)
        #expect(resubscribeTimers(await harness.handle(.relayUnreachable(url: CoreHarness.keyPackages))).isEmpty)
        var scheduled = 0
        for _ in 0..<8 {
            let lost = await harness.handle(.relayUnreachable(url: CoreHarness.discovery))
            guard let (token, _) = resubscribeTimers(lost).first else { continue }
            scheduled += 1
            await harness.handle(.timer(token))
        }
        #expect(scheduled == 6)
    }
}
