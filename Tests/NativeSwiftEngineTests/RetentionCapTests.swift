import Nostr
import Testing

@testable import NativeSwiftEngine

/// Issue 30, N10: the wrapper ids a group record remembers (`processed`, `failed`) stop at
/// `GroupRecord.retainedEventIDs`, the smallest going first.
@Suite struct EventIDRetentionTests {
    static func id(_ n: Int) throws -> EventID {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes[28] = UInt8(truncatingIfNeeded: n >> 24)
        bytes[29] = UInt8(truncatingIfNeeded: n >> 16)
        bytes[30] = UInt8(truncatingIfNeeded: n >> 8)
        bytes[31] = UInt8(truncatingIfNeeded: n)
        return try EventID(bytes: bytes)
    }

    @Test func atTheCapTheSmallestIDGoes() throws {
        let cap = GroupRecord.retainedEventIDs
        var set: Set<EventID> = []
        for n in 1...cap { GroupRecord.remember(try Self.id(n), in: &set) }
        #expect(set.count == cap, "exactly at the cap nothing is dropped")
        #expect(set.contains(try Self.id(1)))
        GroupRecord.remember(try Self.id(cap + 1), in: &set)
        #expect(set.count == cap)
        #expect(!set.contains(try Self.id(1)), "the smallest id went")
        #expect(set.contains(try Self.id(cap + 1)))
        GroupRecord.remember(try Self.id(cap + 1), in: &set)
        #expect(set.count == cap, "an id already held changes nothing")
    }
}
