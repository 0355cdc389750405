import ConformanceTestSupport
import Foundation
@testable import MLS
import Testing
import TLSCodec

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
                var world = try Builders.threeMembers()
                var alice = try #require(world.members[0].group)
                let created = try alice.uncheckedCommit(adding: [], flaw: .confirmationTag, now: nil, using: &world.generator)
                var bob = try #require(world.members[1].group)
                _ = try bob.process(MLSMessage(tlsBytes: created.commit.tlsSerialized()))
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
                var world = try Builders.threeMembers()
                var alice = try #require(world.members[0].group)
                let created = try alice.uncheckedCommit(adding: [], flaw: .pathLeafKeyReuse, now: nil, using: &world.generator)
                var bob = try #require(world.members[1].group)
                _ = try bob.process(MLSMessage(tlsBytes: created.commit.tlsSerialized()))
            }
        case .duplicateExtensions:
            Attack(name: "GroupContext with two marmot_group_data extensions", expected: "tls.invalidValue") {
                let context = GroupContext(
                    cipherSuite: 1, groupID: [1], epoch: 1, treeHash: [], confirmedTranscriptHash: [],
                    extensions: [Extension(type: 0xF2EE, data: [1]), Extension(type: 0xF2EE, data: [2])])
                _ = try GroupContext(tlsBytes: context.tlsSerialized())
            }
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

    @Test func theListOfChecksIsCurrent() throws {
        var lines = [
            "# Receiver checks and the attacks that need them",
            "",
            "Generated by `Tests/MLSTests/ReceiverCheckTests.swift` (`UPDATE_RECEIVER_CHECKS=1 swift test --filter",
            "ReceiverCheckTests` rewrites it). Each MUST-reject check of our MLS receiver has a test switch",
            "(`Sources/MLS/Group/ReceiverCheck.swift`); for each, the negative case built by the unchecked",
            "builders that the check alone stops: refused with the check's code while it is on, and not so",
            "once it is switched off. The scenarios of `scenarios/hostile/` send the same attacks between members.",
            "",
            "| check | attack | with the check on | with it off |",
            "|---|---|---|---|",
        ]
        for check in ReceiverCheck.allCases {
            let attack = Self.attack(for: check)
            lines.append(
                "| `\(check.rawValue)` | \(attack.name) | `\(Self.outcome(of: attack))` | `\(Self.outcome(of: attack, disabling: check))` |")
        }
        let generated = lines.joined(separator: "\n") + "\n"
        let url = Vectors.repositoryRoot.appendingPathComponent("docs/receiver-checks.md")
        if ProcessInfo.processInfo.environment["UPDATE_RECEIVER_CHECKS"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == generated)
    }
}
