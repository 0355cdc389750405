import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import Marmot
import Nostr
import Testing

@testable import MLS
@testable import NativeSwiftEngine

/// The attacks of the round-two engine checks (issue 30: N8, N9, N11, N12 of the receiver review),
/// run by EngineReceiverCheckTests with the others: each refused with the check on, and let
/// through, or answered otherwise, with it off.
extension EngineReceiverCheckTests {
    static func roundTwoAttack(for check: MarmotReceiverCheck) -> Attack {
        switch check {
        case .rollbackProposalPolicy:
            Attack(
                name:
                    "mallory's Remove of bob for the epoch alice's rename just ended, met by bob after the rename (rollback-epoch-proposal)",
                expected: "not kept at the rollback point"
            ) {
                try await bobMeetsLateNonAdminRemove(seed: 96)
            }
        case .plaintextDecodes:
            Attack(
                name: "kind-445 content that opens under the group key and is no MLSMessage (undecodable-plaintext)",
                expected: "invalid_input"
            ) {
                let room = try await Room(seed: 97)
                let forged = try await room.forge(.undecodablePlaintext)
                let first = try await room.bobReceives(forged.events[0])
                // Refused as invalid input, it is remembered: handed back, it is not tried again.
                let again = try await room.bob.engine.processMessage(forged.events[0])
                if first == "invalid_input", case .previouslyFailed = again { return first }
                guard first != "invalid_input" else { return "retried: \(again)" }
                return first
            }
        case .reInitRefused:
            Attack(name: "admin mallory's commit of a ReInit by value (commit-reinit)", expected: "reinit_refused") {
                let room = try await Room(seed: 98, malloryIsAdmin: true)
                return try await room.bobReceives(try await room.forge(.commitReInit).events[0])
            }
        case .groupDataKnownVersion:
            Attack(
                name: "Welcome into a real group whose 0xF2EE version is 3",
                expected: "invalid_welcome: groupData.invalid: unknown version 3"
            ) {
                try await daveOpensForeignWelcome(seed: 99, suite: MarmotCapabilities.suite) { $0.version = 3 }
            }
        case .groupDataOrder:
            Attack(
                name: "Welcome into a real group whose 0xF2EE admin list is written descending",
                expected: "invalid_welcome: groupData.invalid: admin_pubkeys is not ascending and distinct at entry 1"
            ) {
                try await daveOpensForeignWelcome(
                    seed: 100, suite: MarmotCapabilities.suite,
                    data: { data in
                        var generator = TestGenerator(seed: 0xAD_0100)
                        data.admins.append(Keypair.generate(using: &generator).publicKey)
                    }, rewrite: swappedAdmins)
            }
        default:
            // N1–N4 (EngineReceiverCheckRoundTwoCommits.swift).
            roundTwoCommitAttack(for: check)
        }
    }

    /// The 0xF2EE bytes with its two admin keys written in the other order.
    @Sendable static func swappedAdmins(_ data: GroupData, _ bytes: [UInt8]) -> [UInt8] {
        let pair = data.admins.flatMap(\.bytes)
        guard data.admins.count == 2, let start = bytes.firstRange(of: pair)?.lowerBound else { return bytes }
        var out = bytes
        out.replaceSubrange(start..<start + 64, with: data.admins[1].bytes + data.admins[0].bytes)
        return out
    }

    /// Alice renames; bob applies the rename (a rollback point at the old epoch); mallory, who has
    /// not seen the rename, proposes to remove bob in the old epoch, and bob meets that proposal
    /// late. Answer: whether it was kept in the state a rollback would restore.
    static func bobMeetsLateNonAdminRemove(seed: UInt64) async throws -> String {
        let room = try await Room(seed: seed)
        let rename = try await room.alice.engine.updateGroupData(of: room.group, GroupDataChanges(name: "Renamed"))
        try await room.alice.engine.mergePendingCommit(in: room.group)
        guard case .commit = try await room.bob.engine.processMessage(rename.event) else { return "rename not applied" }
        let proposal = try await room.forge(.proposeRemove, target: room.bob)
        let answer = try await room.bobReceives(proposal.events[0])
        guard answer == "wrong_epoch" else { return "answered \(answer)" }
        let bob = try #require(room.bob.engine as? NativeSwiftEngine)
        let kept = await bob.rollbackPendingProposalCount(room.group)
        return kept == 0 ? "not kept at the rollback point" : "kept at the rollback point"
    }
}

extension NativeSwiftEngine {
    /// How many proposals the rollback point of `group` holds (tests only).
    func rollbackPendingProposalCount(_ group: MLSGroupID) -> Int? {
        groups[group]?.rollback?.mls.pendingProposals.count
    }
}
