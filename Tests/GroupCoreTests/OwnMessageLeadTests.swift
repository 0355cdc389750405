import Testing

@testable import GroupCore

/// Our own messages' monotonic `created_at` (docs/group-core.md, "Own messages' timestamps"): a
/// burst keeps its order, and however long it is, never runs more than 60 s ahead of the clock,
/// inside the 300 s a receiver allows (MDK 0.8.0 and our engine refuse a kind 445 further ahead).
@Suite struct OwnMessageLeadTests {
    static let now: UInt64 = 1_700_000_000

    /// `count` messages written at one instant, each after the previous, by `rule`.
    static func burst(_ count: Int, rule: (UInt64, UInt64?) -> UInt64) -> [UInt64] {
        var stamps: [UInt64] = []
        for _ in 0..<count { stamps.append(rule(now, stamps.last)) }
        return stamps
    }

    @Test func aBurstKeepsItsOrderWithinTheLead() {
        let stamps = Self.burst(1_000, rule: GroupCore.ownMessageInstant)
        #expect(stamps.prefix(61) == ArraySlice((0...60).map { Self.now + UInt64($0) }))
        #expect(stamps.max() == Self.now + GroupCore.maximumOwnMessageLead)
        #expect(stamps == stamps.sorted())
    }

    /// Twin: the rule without the bound (one second after the newest, at least now) takes a burst
    /// of 1,000 to 999 s ahead, which every receiver refuses after the 300th message.
    @Test func withoutTheBoundABurstRunsPastWhatReceiversAccept() {
        let unbounded = Self.burst(1_000) { now, newest in max(now, newest.map { $0 + 1 } ?? 0) }
        #expect(unbounded.filter { $0 > Self.now + 300 }.count == 699)
        #expect(Self.burst(1_000, rule: GroupCore.ownMessageInstant).allSatisfy { $0 <= Self.now + 300 })
    }

    /// A core that drifted before (a stored message far ahead) comes back within the lead.
    @Test func aDriftedNewestMessageIsPulledBack() {
        #expect(GroupCore.ownMessageInstant(now: Self.now, newestOwn: Self.now + 5_000) == Self.now + 60)
        #expect(GroupCore.ownMessageInstant(now: Self.now, newestOwn: Self.now - 10) == Self.now)
        #expect(GroupCore.ownMessageInstant(now: Self.now, newestOwn: nil) == Self.now)
    }
}
