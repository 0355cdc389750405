import EngineInterface
import Foundation
import NativeSwiftEngine
import Nostr
import Testing

/// A routing rotation (component 0x8004, nostr-routing-v1.md "Routing rotation"): the commit that
/// moves the group to a new nostr_group_id goes out at the old address, later events carry the new
/// one, and a member that has not followed yet is still heard at the old address, also after a
/// restart (the routing history is in the version-2 state file).
struct CurrentRoutingRotationTests {
    static func hTag(_ event: Event) -> String? { event.tags.first { $0.first == "h" }?.dropFirst().first }

    @Test func rotationIsAnnouncedAtTheOldAddressAndSurvivesARestart() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/alice.state"
        var generator = SplitMix(seed: 71)
        let keypair = Keypair.generate(using: &generator)
        let now = CurrentProfileTests.now
        let alice = CurrentProfileTests.Member(
            keypair: keypair,
            engine: try NativeSwiftEngine(
                generator: SplitMix(seed: 72), clock: { now }, stateFile: path, profile: .current, accountKeys: [keypair]))
        let bob = CurrentProfileTests.member(73, .current)
        let carol = CurrentProfileTests.member(74, .current)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey,
                keyPackages: [try await CurrentProfileTests.keyPackage(of: bob), try await CurrentProfileTests.keyPackage(of: carol)],
                name: "Moving", relays: CurrentProfileTests.relays, admins: [alice.pubkey]))
        for (index, member) in [bob, carol].enumerated() {
            let pending = try await member.engine.processWelcome(
                wrapperID: try EventID(bytes: [UInt8](repeating: UInt8(index + 5), count: 32)), rumor: created.welcomeRumors[index])
            _ = try await member.engine.acceptWelcome(pending.id)
        }
        let group = created.group.mlsGroupID
        let old = created.group.nostrGroupID
        // carol writes before she hears of the move: her message is addressed to the old id.
        let late = try await carol.engine.createMessage(in: group, sender: carol.pubkey, kind: 9, content: "still here", tags: [])
        #expect(Self.hTag(late) == old)

        let fresh = [UInt8](repeating: 0xAB, count: 32)
        let rotation = try await alice.engine.updateGroupData(of: group, GroupDataChanges(nostrGroupID: fresh))
        #expect(Self.hTag(rotation.event) == old, "the rotation is announced where members listen")
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await alice.engine.group(group).nostrGroupID == fresh.map { String(format: "%02x", $0) }.joined())
        #expect(try await bob.engine.processMessage(rotation.event) == .commit(group))
        #expect(try await bob.engine.group(group).nostrGroupID == fresh.map { String(format: "%02x", $0) }.joined())

        // Later traffic carries the new address, and opens.
        let after = try await alice.engine.createMessage(in: group, sender: alice.pubkey, kind: 9, content: "moved", tags: [])
        #expect(Self.hTag(after) == fresh.map { String(format: "%02x", $0) }.joined())
        guard case .applicationMessage = try await bob.engine.processMessage(after) else {
            Issue.record("bob could not open a message at the new address")
            return
        }

        // An address the group has had cannot be taken again.
        let oldBytes = stride(from: 0, to: old.count, by: 2).map { UInt8(old.dropFirst($0).prefix(2), radix: 16)! }
        await #expect(throws: EngineError(.invalidInput, "")) {
            try await alice.engine.updateGroupData(of: group, GroupDataChanges(nostrGroupID: oldBytes))
        }

        // Restarted, alice still hears carol at the old address: the routing history was kept.
        let restarted = try NativeSwiftEngine(generator: SplitMix(seed: 75), clock: { now }, stateFile: path)
        guard case .applicationMessage(let received) = try await restarted.processMessage(late) else {
            Issue.record("the restarted member no longer routes the old address to the group")
            return
        }
        #expect(received.rumor.content == "still here")
    }

    @Test func legacyRefusesARotation() async throws {
        let alice = CurrentProfileTests.member(81, .legacy)
        let created = try await alice.engine.createGroup(
            GroupCreation(creator: alice.pubkey, keyPackages: [], name: "Old", relays: CurrentProfileTests.relays, admins: [alice.pubkey]))
        await #expect(throws: EngineError(.invalidInput, "")) {
            try await alice.engine.updateGroupData(
                of: created.group.mlsGroupID, GroupDataChanges(nostrGroupID: [UInt8](repeating: 1, count: 32)))
        }
        // The twin: a rename of the same group goes through.
        _ = try await alice.engine.updateGroupData(of: created.group.mlsGroupID, GroupDataChanges(name: "Renamed"))
    }
}
