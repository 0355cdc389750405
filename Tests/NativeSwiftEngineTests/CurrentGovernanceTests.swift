import EngineInterface
import NativeSwiftEngine
import Nostr
import Testing

/// Losing the last admin freezes governance (admin-policy-v1.md, "Removal" and "SelfRemove"): the
/// only admin can neither step down nor leave, nobody else can change the group, and messages
/// still flow. Each refusal has a twin that goes through once a second admin exists.
struct CurrentGovernanceTests {
    @Test func theLastAdminCannotGoAndOthersCannotGovern() async throws {
        let alice = CurrentProfileTests.member(91, .current)
        let bob = CurrentProfileTests.member(92, .current)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [try await CurrentProfileTests.keyPackage(of: bob)], name: "Frozen",
                relays: CurrentProfileTests.relays, admins: [alice.pubkey]))
        let pending = try await bob.engine.processWelcome(
            wrapperID: try EventID(bytes: [UInt8](repeating: 9, count: 32)), rumor: created.welcomeRumors[0])
        let group = try await bob.engine.acceptWelcome(pending.id).mlsGroupID

        await #expect(throws: EngineError(.lastAdmin, "")) { try await alice.engine.selfDemote(in: group) }
        await #expect(throws: EngineError(.adminCannotLeave, "")) { try await alice.engine.leaveGroup(group) }
        // With alice gone silent, bob has no way to govern: no rename, no invitation, no promotion.
        await #expect(throws: EngineError(.notAdmin, "")) {
            try await bob.engine.updateGroupData(of: group, GroupDataChanges(name: "Mine"))
        }
        await #expect(throws: EngineError(.notAdmin, "")) {
            try await bob.engine.updateGroupData(of: group, GroupDataChanges(admins: [alice.pubkey, bob.pubkey]))
        }
        // Messages still flow.
        let message = try await bob.engine.createMessage(in: group, sender: bob.pubkey, kind: 9, content: "still talking", tags: [])
        guard case .applicationMessage = try await alice.engine.processMessage(message) else {
            Issue.record("a member's message did not open in a frozen group")
            return
        }

        // The twin: once bob is a second admin, alice may step down.
        let promote = try await alice.engine.updateGroupData(of: group, GroupDataChanges(admins: [alice.pubkey, bob.pubkey]))
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await bob.engine.processMessage(promote.event) == .commit(group))
        let demote = try await alice.engine.selfDemote(in: group)
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await bob.engine.processMessage(demote.event) == .commit(group))
        #expect(try await bob.engine.group(group).admins == [bob.pubkey])
    }
}
