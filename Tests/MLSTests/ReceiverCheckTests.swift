import ConformanceTestSupport
import Foundation
import TLSCodec
import Testing

@testable import MLS

/// Every receiver check with a test switch (MLS/Group/ReceiverCheck.swift) has a negative case that
/// it alone stops: with every check on, the case is refused with the check's own code; with that
/// one check off, it is not (accepted, or refused later by something else). The table of checks and
/// their cases is docs/receiver-checks.md, generated here; `UPDATE_RECEIVER_CHECKS=1 swift test
/// --filter ReceiverCheckTests` rewrites it.
@Suite struct ReceiverCheckTests {
    typealias Builders = UncheckedBuilderTests

    /// A negative case: what it sends, the code that must stop it, and how to run it.
    struct Attack: Sendable {
        let name: String
        let expected: String
        let run: @Sendable () throws -> Void
    }

    static let text = Content.application(Array("hi".utf8))

    static func attack(for check: ReceiverCheck) -> Attack {
        switch check {
        case .epoch:
            Attack(name: "application message labelled with the next epoch", expected: "mls.wrongEpoch") {
                let epoch = try #require(try Builders.threeMembers().members[0].group).epoch
                _ = try Builders.bobReceives(text, flaw: .epoch(epoch + 1))
            }
        case .membershipTag:
            Attack(name: "PublicMessage proposal with a wrong membership tag", expected: "mls.badMembershipTag") {
                _ = try Builders.bobReceives(.proposal(.remove(leaf: 2)), flaw: .membershipTag, as: .publicMessage)
            }
        case .signature:
            Attack(name: "application message claiming another member as sender", expected: "mls.badSignature") {
                _ = try Builders.bobReceives(text, flaw: .sender(2))
            }
        case .padding:
            Attack(name: "application message with non-zero padding", expected: "mls.badPadding") {
                _ = try Builders.bobReceives(text, flaw: .padding)
            }
        case .confirmationTag:
            Attack(name: "self-update commit with a wrong confirmation tag", expected: "mls.badConfirmationTag") {
                _ = try Builders.bobProcessesSelfUpdate(flaw: .confirmationTag)
            }
        case .groupInfoSignature:
            Attack(name: "Welcome whose GroupInfo signature does not verify", expected: "mls.badSignature") {
                _ = try Builders.bobJoins(flaw: .groupInfoSignature)
            }
        case .treeHash:
            Attack(name: "Welcome whose GroupInfo tree_hash differs from its tree", expected: "mls.invalidTree") {
                _ = try Builders.bobJoins(flaw: .treeHash)
            }
        case .parentHash:
            Attack(name: "Welcome whose tree breaks the parent-hash chain", expected: "mls.invalidParentHash") {
                _ = try Builders.bobJoins(flaw: .parentHash)
            }
        case .pathLeaf:
            Attack(name: "self-update whose UpdatePath leaf reuses another member's encryption key", expected: "mls.invalidTree") {
                _ = try Builders.bobProcessesSelfUpdate(flaw: .pathLeafKeyReuse)
            }
        case .duplicateExtensions:
            Attack(name: "GroupContext with two marmot_group_data extensions", expected: "tls.invalidValue") {
                let context = GroupContext(
                    cipherSuite: 1, groupID: [1], epoch: 1, treeHash: [], confirmedTranscriptHash: [],
                    extensions: [Extension(type: 0xF2EE, data: [1]), Extension(type: 0xF2EE, data: [2])])
                _ = try GroupContext(tlsBytes: context.tlsSerialized())
            }
        case .blankLeafSender:
            // Leaf 3 of the four-leaf tree is blank; its ratchet is every member's to derive.
            Attack(name: "application message whose sender names blank leaf 3", expected: "mls.invalidSender") {
                _ = try Builders.bobReceives(text, flaw: .sender(3))
            }
        case .pathRequired:
            Attack(name: "commit of a Remove without an UpdatePath", expected: "mls.invalidProposal") {
                try bobProcessesCommit({ _ in [.remove(leaf: 2)] }, flaw: .noPath)
            }
        case .updatePathShape:
            Attack(name: "self-update whose UpdatePath has one node more than the filtered direct path", expected: "mls.invalidUpdatePath")
            {
                try bobProcessesCommit({ _ in [] }, flaw: .extraPathNode)
            }
        case .unmergedLeaves:
            Attack(name: "Welcome whose tree drops an unmerged leaf from an intermediate parent", expected: "mls.invalidTree") {
                try frankJoinsWithUnmergedLeafDropped(flaw: .unmergedLeafDropped)
            }
        case .duplicatePSK:
            Attack(name: "commit naming one resumption PSK twice", expected: "mls.invalidProposal") {
                try bobProcessesCommit({ world in Array(repeating: try currentEpochPSK(world), count: 2) }, senderSkips: [.duplicatePSK])
            }
        case .pskNonceLength:
            Attack(name: "commit of a resumption PSK with a 1-byte psk_nonce", expected: "mls.invalidProposal") {
                try bobProcessesCommit({ world in [try currentEpochPSK(world, nonceLength: 1)] }, senderSkips: [.pskNonceLength])
            }
        case .messageVersion:
            Attack(name: "application message with MLSMessage version 2", expected: "mls.unsupportedVersion") {
                try bobReceivesVersion(2)
            }
        case .keyPackageVersion:
            Attack(name: "commit adding a KeyPackage of version 2, signed by its owner", expected: "mls.unsupportedVersion") {
                try bobProcessesCommit({ world in [try resignedKeyPackage(&world) { $0.version = 2 }] }, senderSkips: [.keyPackageVersion])
            }
        case .keyPackageCipherSuite:
            Attack(name: "commit adding a KeyPackage of suite 0x0003, signed by its owner", expected: "mls.unsupportedCipherSuite") {
                try bobProcessesCommit(
                    { world in [try resignedKeyPackage(&world) { $0.cipherSuite = 3 }] }, senderSkips: [.keyPackageCipherSuite])
            }
        case .groupContextVersion:
            Attack(name: "Welcome whose GroupContext names version 2", expected: "mls.unsupportedVersion") {
                _ = try Builders.bobJoins(flaw: .groupContextVersion)
            }
        case .joinerExtensions:
            Attack(name: "Welcome whose GroupContext carries extension 0xFF0A the joiner does not list", expected: "mls.missingCapability")
            {
                _ = try Builders.bobJoins(flaw: .unsupportedContextExtension)
            }
        case .welcomeKeyPackageSuite:
            Attack(name: "Welcome into a group of suite 0x0003 for a KeyPackage of suite 0x0001", expected: "mls.unsupportedCipherSuite") {
                try bobJoinsGroupOfSuite(.x25519ChaCha20Poly1305SHA256Ed25519)
            }
        case .keyPackageSignature:
            Attack(name: "commit adding a KeyPackage whose signature is off by one bit", expected: "mls.badSignature") {
                try bobProcessesCommit(
                    { world in [try resignedKeyPackage(&world, resign: false) { $0.signature[0] ^= 0x01 }] },
                    senderSkips: [.keyPackageSignature])
            }
        case .keyPackageLeafSignature:
            Attack(
                name: "commit adding a KeyPackage whose leaf signature is off by one bit, re-signed by its owner",
                expected: "mls.badSignature"
            ) {
                try bobProcessesCommit(
                    { world in [try resignedKeyPackage(&world) { $0.leafNode.signature[0] ^= 0x01 }] },
                    senderSkips: [.keyPackageLeafSignature])
            }
        case .pathLeafSignature:
            Attack(name: "self-update whose UpdatePath leaf is signed by a key not the committer's", expected: "mls.badSignature") {
                try bobProcessesCommit({ _ in [] }, flaw: .pathLeafSignature)
            }
        case .addKeyUniqueness:
            Attack(name: "commit (no path) adding carol's KeyPackage again while carol is a member", expected: "mls.invalidProposal") {
                try bobProcessesCommit(
                    { world in [.add(world.members[2].keyPackage.keyPackage)] }, forcePath: false, senderSkips: [.addKeyUniqueness])
            }
        case .oneProposalPerLeaf:
            Attack(name: "commit of carol's Update (by reference) and a Remove of carol", expected: "mls.invalidProposal") {
                try bobProcessesCommit(
                    { world in
                        try world.proposeUpdate(2)
                        return [.remove(leaf: 2)]
                    }, senderSkips: [.oneProposalPerLeaf])
            }
        case .removeBlankLeaf:
            Attack(name: "commit removing blank leaf 3", expected: "mls.invalidProposal") {
                try bobProcessesCommit({ _ in [.remove(leaf: 3)] }, senderSkips: [.removeBlankLeaf])
            }
        case .committerUpdate:
            Attack(name: "alice's commit carrying an Update of her own leaf", expected: "mls.invalidProposal") {
                try bobProcessesCommit({ world in [try aliceUpdate(&world)] }, senderSkips: [.committerUpdate])
            }
        case .singleGroupContextExtensions:
            Attack(name: "commit carrying two GroupContextExtensions proposals", expected: "mls.invalidProposal") {
                try bobProcessesCommit(
                    { world in Array(repeating: try sameExtensions(world), count: 2) }, senderSkips: [.singleGroupContextExtensions])
            }
        case .updateLeafSignature:
            Attack(name: "commit of carol's Update (by reference) whose leaf signature is off by one bit", expected: "mls.invalidProposal")
            {
                try bobProcessesCommit(
                    { world in
                        try world.propose(2, .update(try updateLeaf(of: 2, &world, change: { $0.signature[0] ^= 0x01 })))
                        return []
                    }, senderSkips: [.updateLeafSignature])
            }
        case .updateKeyReuse:
            Attack(name: "commit of carol's Update (by reference) whose leaf takes bob's encryption key", expected: "mls.invalidProposal") {
                try bobProcessesCommit(
                    { world in
                        let bob = try #require(world.members[1].group)
                        let bobsKey = try #require(bob.tree.leaf(1)).encryptionKey
                        try world.propose(2, .update(try updateLeaf(of: 2, &world, key: bobsKey)))
                        return []
                    }, senderSkips: [.updateKeyReuse])
            }
        case .reInitAlone:
            Attack(name: "commit of a ReInit next to a GroupContextExtensions", expected: "mls.invalidProposal") {
                try bobProcessesCommit(
                    { world in
                        [
                            .reInit(groupID: Array("next".utf8), version: ProtocolVersion.mls10, cipherSuite: 1, extensions: []),
                            try sameExtensions(world),
                        ]
                    }, senderSkips: [.reInitAlone])
            }
        case .resumptionUsage:
            Attack(name: "regular commit of a resumption PSK of usage reinit (2)", expected: "mls.invalidProposal") {
                try bobProcessesCommit({ world in [try currentEpochPSK(world, usage: 2)] }, senderSkips: [.resumptionUsage])
            }
        case .proposalSender, .externalInitInMemberCommit, .externalCommitShape, .externalCommitReferences, .committerRemoved,
            .keyPackageLeafSource, .keyPackageInitKey, .updateLeafSource, .pathLeafSource, .pathKeysDistinct, .pathParentHash,
            .addCapabilities, .addCredentialTypes, .updateCapabilities, .extensionsCapabilities, .proposalTypeSupport,
            .joinerLeafSignatures, .joinerKeyUniqueness, .joinerCapabilities, .joinerOwnLeaf, .joinerPrivateKeys, .groupID,
            .publicApplicationData, .commitSender, .addLifetime, .pathDerivedKeys, .groupInfoConfirmationTag, .groupInfoSuite,
            .removalAfterChecks,
            .treeWidth, .resumptionPSKRetention:
            // A missing attack fails both expectations of eachCheckAloneStopsItsAttack.
            ruleAttack(for: check) ?? Attack(name: "no attack for \(check.rawValue)", expected: "an attack") {}
        }
    }

    /// The code an attack was refused with, or "accepted".
    static func outcome(of attack: Attack, disabling check: ReceiverCheck? = nil) -> String {
        ReceiverCheck.$disabled.withValue(check.map { [$0] } ?? []) {
            do {
                try attack.run()
                return "accepted"
            } catch let error as MLSError {
                return error.code.name
            } catch let error as TLSCodecError {
                return error.code.name
            } catch {
                return "\(error)"
            }
        }
    }

    @Test(arguments: ReceiverCheck.allCases)
    func eachCheckAloneStopsItsAttack(check: ReceiverCheck) {
        let attack = Self.attack(for: check)
        #expect(Self.outcome(of: attack) == attack.expected, "with every check on")
        #expect(Self.outcome(of: attack, disabling: check) != attack.expected, "with \(check.rawValue) off")
    }

    /// Every switch has its row in the document, and every row shows the check making a difference.
    @Test func everySwitchHasAProofRow() throws {
        let rows = try GeneratedDocument.checkRows(
            .beforeMarker, of: "docs/receiver-checks.md", marker: GeneratedDocument.engineChecksMarker)
        #expect(rows.map(\.check) == ReceiverCheck.allCases.map(\.rawValue))
        for row in rows { #expect(row.on != row.off, "\(row.check)") }
    }

    @Test func theListOfChecksIsCurrent() throws {
        let intro = [
            "# Receiver checks and the attacks that need them",
            "",
            "Generated by `Tests/MLSTests/ReceiverCheckTests.swift` (`UPDATE_RECEIVER_CHECKS=1 swift test --filter",
            "ReceiverCheckTests` rewrites it). Each of the \(ReceiverCheck.allCases.count) MUST-reject checks of our MLS receiver has a test",
            "switch (`Sources/MLS/Group/ReceiverCheck.swift`); for each, the negative case built by the unchecked",
            "builders that the check alone stops: refused with the check's code while it is on, and not so",
            "once it is switched off. The scenarios of `scenarios/hostile/` send the same attacks between members.",
            "Where an honest sender would refuse to build the case (a duplicate PSK, a KeyPackage of another",
            "version or suite, a proposal list breaking RFC 9420 §12.2), the builder skips that sender-side",
            "check, as an attacker would; the receiver runs every check but the one under test. External",
            "commits are framed as `new_member_commit` by a joiner who uses only what a GroupInfo publishes;",
            "a Welcome's tree is altered by its committer, then re-hashed and re-signed, so that the joiner's",
            "check of the tree, not a hash or signature before it, meets the flaw. A test fails when a switch",
            "has no row here or a row shows no difference. What refuses input without a switch is listed, with",
            "the reason, at the end of this document.",
        ]
        let rows = ReceiverCheck.allCases.map { check in
            let attack = Self.attack(for: check)
            return (check.rawValue, attack.name, Self.outcome(of: attack), Self.outcome(of: attack, disabling: check))
        }
        // The Marmot-level checks of our engine follow from the marker on, generated by
        // Tests/NativeSwiftEngineTests/EngineReceiverCheckTests.swift.
        let generated = GeneratedDocument.checkTable(intro: intro, rows: rows) + "\n"
        let current = try GeneratedDocument.current(
            .beforeMarker, of: "docs/receiver-checks.md", marker: GeneratedDocument.engineChecksMarker, generated: generated)
        #expect(current == generated)
    }
}
