import Testing

@testable import MLS

/// Issue 30, N10: a group keeps the resumption PSKs of its last `Group.retainedResumptionPSKs`
/// epochs, not of every epoch it went through (each copied into every past epoch a member keeps).
@Suite struct RetentionCapTests {
    @Test func resumptionPSKsStopGrowingAtTheCap() throws {
        let cap = Int(Group.retainedResumptionPSKs)
        var world = try GroupTests.World.alicePlusBob(groupID: Array("retention".utf8))
        // Epoch 1 now; each self-update adds one epoch, for both members.
        for _ in 0..<(cap + 7) { try world.commit(0) }
        for member in [0, 1] {
            let group = try #require(world.members[member].group)
            #expect(group.resumptionPSKs.count == cap, "member \(member) at epoch \(group.epoch)")
            #expect(group.resumptionPSKs.keys.min() == group.epoch - UInt64(cap) + 1)
            #expect(group.resumptionPSKs[group.epoch] != nil, "the current epoch's PSK is kept")
        }
    }

    @Test func belowTheCapEveryEpochIsKept() throws {
        let cap = Int(Group.retainedResumptionPSKs)
        var world = try GroupTests.World.alicePlusBob(groupID: Array("retention".utf8))
        for _ in 0..<(cap - 3) { try world.commit(0) }
        let alice = try #require(world.members[0].group)
        // Alice created at epoch 0 and went through every epoch since.
        #expect(alice.resumptionPSKs.count == Int(alice.epoch) + 1)
        #expect(alice.resumptionPSKs.count == cap - 1)
    }
}
