import InMemoryRelay
import Nostr
import Testing

/// The work one frame can cause is bounded: `limit` is applied while scanning (never by sorting
/// every match first), COUNT sorts nothing, and a REQ or COUNT carries at most so many filters.
@Suite struct RelayWorkBoundsTests {
    /// A store with many equal `created_at` values, so that the id tie-break decides the order.
    private func filledHarness() throws -> RelayHarness {
        var harness = RelayHarness()
        for index in 0..<120 {
            let offset = Int64((index * 7919) % 23) - 40
            _ = try harness.ok(try harness.event(1, at: offset, content: "event \(index)"))
        }
        return harness
    }

    // R9/R11: a limited query returns exactly the first `limit` of the unlimited one, in order.
    @Test(arguments: [1, 2, 7, 23, 64, 119, 120, 500])
    func limitKeepsTheNewestInResultOrder(_ limit: Int) throws {
        var harness = try filledHarness()
        let all = try harness.query([Filter(kinds: [1])])
        #expect(all.count == 120)
        var limited = Filter(kinds: [1])
        limited.limit = limit
        #expect(try harness.query([limited]) == Array(all.prefix(limit)))
    }

    // Several limited filters: the union of each filter's best, deduplicated, in one order.
    @Test func limitedFiltersUnionInOneOrder() throws {
        var harness = try filledHarness()
        let all = try harness.query([Filter(kinds: [1])])
        var first = Filter(kinds: [1])
        first.limit = 5
        var second = Filter(kinds: [1])
        second.limit = 9
        #expect(try harness.query([first, second]) == Array(all.prefix(9)))
    }

    @Test func countCountsDistinctMatchesOfEveryFilter() throws {
        var harness = try filledHarness()
        let replies = try harness.send(
            #"["COUNT","c",{"kinds":[1],"limit":1},{"kinds":[1,2]},{"authors":["\#(harness.bob.publicKey.hex)"]}]"#)
        #expect(replies.first?.1 == .count(subscription: "c", count: 120))
    }

    @Test(arguments: ["REQ", "COUNT"])
    func tooManyFiltersAreRefusedBeforeAnyWork(_ verb: String) throws {
        var harness = RelayHarness(policy: RelayPolicy(maximumFiltersPerRequest: 3))
        _ = try harness.ok(try harness.event(1))
        let filters = Array(repeating: #"{"kinds":[1]}"#, count: 4).joined(separator: ",")
        let replies = try harness.send(#"["\#(verb)","s",\#(filters)]"#)
        guard replies.count == 1, case .closed("s", let message) = replies[0].1 else {
            Issue.record("expected one CLOSED, got \(replies)")
            return
        }
        #expect(prefix(message) == .rateLimited)
        // At the bound it is served.
        let served = Array(repeating: #"{"kinds":[1]}"#, count: 3).joined(separator: ",")
        #expect(try harness.send(#"["\#(verb)","t",\#(served)]"#).contains { if case .closed = $0.1 { false } else { true } })
    }

    @Test(arguments: ["REQ", "COUNT"])
    func aQueryThatWouldExamineTooMuchIsRefused(_ verb: String) throws {
        var harness = RelayHarness(policy: RelayPolicy(maximumEventsScannedPerRequest: 10))
        for offset in 0..<6 { _ = try harness.ok(try harness.event(1, at: Int64(offset))) }
        // Two filters over the same six events: twelve to examine.
        let replies = try harness.send(#"["\#(verb)","s",{"kinds":[1]},{"kinds":[1],"limit":1}]"#)
        guard replies.count == 1, case .closed("s", let message) = replies[0].1 else {
            Issue.record("expected one CLOSED, got \(replies)")
            return
        }
        #expect(prefix(message) == .rateLimited)
        // One filter (six to examine) is served.
        #expect(try harness.send(#"["\#(verb)","t",{"kinds":[1]}]"#).contains { if case .closed = $0.1 { false } else { true } })
    }
}
