import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Marmot
import Nostr
import Testing

@testable import NativeSwiftEngine

// The attacks of the second receiver review (issue 30, N1–N4) for the generated rows of
// docs/receiver-checks.md: each stopped by its check alone.
extension EngineReceiverCheckTests {
    static func roundTwoCommitAttack(for check: MarmotReceiverCheck) -> Attack {
        switch check {
        case .replayedCommit:
            Attack(
                name: "alice's rename, applied, then its content republished by mallory under a new key a second earlier (replayed-commit)",
                expected: NativeSwiftEngine.duplicateCommit
            ) {
                let room = try await Room(seed: 96)
                let rename = try await room.alice.engine.updateGroupData(of: room.group, GroupDataChanges(name: "renamed"))
                try await MemberBench.commit(rename, by: room.alice, to: [room.bob, room.mallory])
                return try await room.bobReceives(try await room.forge(.replayedCommit).events[0])
            }
        case .groupIDCollision:
            Attack(
                name: "mallory's commit moving her group with bob onto the `h` of bob's other group (retarget-group-id)",
                expected: EngineError.Code.groupIDCollision.name
            ) {
                var room = try await Room(seed: 97)
                let side = try await room.bench.createGroup(by: room.mallory, inviting: [room.bob], name: "Side", admins: [room.mallory])
                let forged = try await HostileMemberTests.forge(.retargetGroupID, by: room.mallory, in: side)
                return try await room.bobReceives(forged.events[0])
            }
        case .welcomeIntoLeftGroup:
            Attack(
                name: "the Welcome bob joined mallory's group by, resent by her after she removed him (resent-welcome)",
                expected: "invalid_welcome"
            ) {
                var room = try await Room(seed: 98)
                let side = try await room.bench.createGroup(by: room.mallory, inviting: [room.bob], name: "Side", admins: [room.mallory])
                let removal = try await room.mallory.engine.removeMembers(from: side, pubkeys: [room.bob.pubkey])
                try await room.mallory.engine.mergePendingCommit(in: side)
                _ = try await room.bob.engine.processMessage(removal.event)
                return try await room.bobOpensResent(from: room.mallory, in: side)
            }
        case .welcomerIsSigner:
            Attack(name: "alice's Welcome to dave, sent to him by mallory as hers", expected: "invalid_welcome") {
                var room = try await Room(seed: 99)
                let dave = room.bench.swiftMember("dave")
                let added = try await room.alice.engine.addMembers(to: room.group, keyPackages: [try await room.bench.keyPackage(of: dave)])
                var rumor = added.welcomeRumors[0]
                rumor.pubkey = room.mallory.pubkey
                let (wrapper, unwrapped) = try room.bench.deliverWelcome(rumor, from: room.mallory, to: dave)
                _ = try await dave.engine.processWelcome(wrapperID: wrapper, rumor: unwrapped)
                return "accepted"
            }
        case .ownCommitPolicy:
            Attack(
                name: "non-admin bob's self-update while mallory's Remove of herself is stored, answered by admin alice",
                expected: "accepted"
            ) {
                let room = try await Room(seed: 100)
                let leave = try await room.forge(.proposeRemove, target: room.mallory).events[0]
                for member in [room.alice, room.bob] { _ = try await member.engine.processMessage(leave) }
                let update = try await room.bob.engine.selfUpdate(in: room.group)
                return EngineReceiverCheckTests.answer(try await room.alice.engine.processMessage(update.event))
            }
        default:
            Attack(name: "no round-two attack for \(check.rawValue)", expected: "an attack") { "none" }
        }
    }
}

extension EngineReceiverCheckTests.Room {
    /// Bob's answer to the welcome rumor `sender` sent him into `group`, sent again by `sender`.
    mutating func bobOpensResent(from sender: Member, in group: MLSGroupID) async throws -> String {
        let forged = try await HostileMemberTests.forge(.resentWelcome, by: sender, in: group, target: bob)
        let (wrapper, rumor) = try bench.deliverWelcome(forged.welcomeRumors[0], from: sender, to: bob)
        _ = try await bob.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
        return "accepted"
    }
}
