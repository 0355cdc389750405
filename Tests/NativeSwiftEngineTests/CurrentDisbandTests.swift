import EngineInterface
import NativeSwiftEngine
import Nostr
import Testing

/// Disbanding (component 0x800c, group-lifecycle-v1.md): the owner's one commit removes everyone
/// else, leaves itself the only admin and marks the group disbanded; every member then holds the
/// group as inactive and nobody sends in it again. A non-admin cannot disband, a legacy engine has no
/// lifecycle to change.
struct CurrentDisbandTests {
    @Test func anAdminDisbandsAndEveryoneStops() async throws {
        let alice = CurrentProfileTests.member(101, .current)
        let bob = CurrentProfileTests.member(102, .current)
        let carol = CurrentProfileTests.member(103, .current)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey,
                keyPackages: [try await CurrentProfileTests.keyPackage(of: bob), try await CurrentProfileTests.keyPackage(of: carol)],
                name: "Ending", relays: CurrentProfileTests.relays, admins: [alice.pubkey, bob.pubkey]))
        for (index, member) in [bob, carol].enumerated() {
            let pending = try await member.engine.processWelcome(
                wrapperID: try EventID(bytes: [UInt8](repeating: UInt8(index + 20), count: 32)), rumor: created.welcomeRumors[index])
            _ = try await member.engine.acceptWelcome(pending.id)
        }
        let group = created.group.mlsGroupID

        await #expect(throws: EngineError(.notAdmin, "")) { try await carol.engine.disbandGroup(group) }
        let disband = try await alice.engine.disbandGroup(group)
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await alice.engine.group(group).state == .disbanded, "the committer's leaf is mechanical only")
        #expect(try await alice.engine.group(group).admins == [alice.pubkey])
        for member in [bob, carol] {
            #expect(try await member.engine.processMessage(disband.event) == .commit(group))
            // Removed by the disband commit, each judged its shape from the inline proposals.
            #expect(try await member.engine.group(group).state == .disbanded)
        }
        // Nobody sends in a disbanded group, the committer included.
        await #expect(throws: EngineError(.invalidInput, "")) {
            try await alice.engine.createMessage(in: group, sender: alice.pubkey, kind: 9, content: "after", tags: [])
        }
        await #expect(throws: EngineError(.invalidInput, "")) {
            try await bob.engine.createMessage(in: group, sender: bob.pubkey, kind: 9, content: "after", tags: [])
        }
    }

    /// The twin of the removed members' `disbanded`: an ordinary removal leaves the removed member
    /// `inactive`, and only the current profile's engine declares `group.disband`.
    @Test func aRemovalIsNoDisband() async throws {
        let alice = CurrentProfileTests.member(121, .current)
        let bob = CurrentProfileTests.member(122, .current)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [try await CurrentProfileTests.keyPackage(of: bob)], name: "Kept",
                relays: CurrentProfileTests.relays, admins: [alice.pubkey]))
        let pending = try await bob.engine.processWelcome(
            wrapperID: try EventID(bytes: [UInt8](repeating: 0x33, count: 32)), rumor: created.welcomeRumors[0])
        _ = try await bob.engine.acceptWelcome(pending.id)
        let group = created.group.mlsGroupID
        let removal = try await alice.engine.removeMembers(from: group, pubkeys: [bob.pubkey])
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await bob.engine.processMessage(removal.event) == .commit(group))
        #expect(try await bob.engine.group(group).state == .inactive)
        #expect(try await alice.engine.group(group).state == .active)
        #expect(try await alice.engine.capabilities().supports(.disbandGroup))
        #expect(!(try await CurrentProfileTests.member(123, .legacy).engine.capabilities().supports(.disbandGroup)))
    }

    @Test func legacyHasNoLifecycle() async throws {
        let alice = CurrentProfileTests.member(111, .legacy)
        let created = try await alice.engine.createGroup(
            GroupCreation(creator: alice.pubkey, keyPackages: [], name: "Old", relays: CurrentProfileTests.relays, admins: [alice.pubkey]))
        await #expect(throws: EngineError(.invalidInput, "")) { try await alice.engine.disbandGroup(created.group.mlsGroupID) }
        // The twin on the current profile: a one-member group disbands with no Remove at all.
        let solo = CurrentProfileTests.member(112, .current)
        let alone = try await solo.engine.createGroup(
            GroupCreation(creator: solo.pubkey, keyPackages: [], name: "Solo", relays: CurrentProfileTests.relays, admins: [solo.pubkey]))
        _ = try await solo.engine.disbandGroup(alone.group.mlsGroupID)
        try await solo.engine.mergePendingCommit(in: alone.group.mlsGroupID)
        #expect(try await solo.engine.group(alone.group.mlsGroupID).state == .disbanded)
    }
}
