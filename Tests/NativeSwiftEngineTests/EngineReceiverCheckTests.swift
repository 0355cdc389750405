import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import HexEncoding
import Marmot
import Nostr
import Testing

@testable import NativeSwiftEngine

/// Every Marmot-level receiver check of our engine (Marmot/Rules/MarmotReceiverCheck.swift) has an
/// attack that it alone stops, driven through `NativeSwiftEngine` with the hostile member's forgeries
/// (or a re-signed envelope): with every check on, the receiver answers with the check's own reason;
/// with that one check off, it does not. Generates the engine part of docs/receiver-checks.md
/// (`UPDATE_RECEIVER_CHECKS=1 swift test --filter EngineReceiverCheckTests` rewrites it).
@Suite struct EngineReceiverCheckTests {
    /// An attack: what it sends, the receiver's answer that must stop it, and how to run it
    /// (returning the receiver's answer).
    struct Attack: Sendable {
        let name: String
        let expected: String
        let run: @Sendable () async throws -> String
    }

    /// A group of an admin (alice) and two members, one of them hostile (mallory); bob receives.
    struct Room {
        var bench: MemberBench
        let clock: HostileMemberTests.TestClock
        let alice: Member, bob: Member, mallory: Member
        let group: MLSGroupID

        init(seed: UInt64, malloryIsAdmin: Bool = false) async throws {
            let clock = HostileMemberTests.TestClock()
            self.clock = clock
            bench = MemberBench(seed: seed)
            alice = HostileMemberTests.member("alice", bench: &bench, clock: clock)
            bob = HostileMemberTests.member("bob", bench: &bench, clock: clock)
            mallory = HostileMemberTests.member("mallory", bench: &bench, clock: clock)
            group = try await bench.createGroup(
                by: alice, inviting: [bob, mallory], name: "C", admins: malloryIsAdmin ? [alice, mallory] : [alice])
        }

        func forge(_ attack: HostileAttack, target: Member? = nil, keyPackage: Event? = nil) async throws -> ForgedTraffic {
            try await HostileMemberTests.forge(attack, by: mallory, in: group, target: target, keyPackage: keyPackage)
        }

        /// An honest chat message from mallory, its kind-445 envelope re-signed by a fresh key after `change`.
        mutating func message(envelope change: (inout UnsignedEvent) -> Void) async throws -> Event {
            let event = try await mallory.engine.createMessage(
                in: group, sender: mallory.pubkey, kind: .chatMessage, content: "hi", tags: [])
            var unsigned = event.unsigned
            change(&unsigned)
            let oneTime = Keypair.generate(using: &bench.generator)
            unsigned.pubkey = oneTime.publicKey
            return try unsigned.signed(with: oneTime, using: &bench.generator)
        }

        func bobReceives(_ event: Event) async throws -> String {
            EngineReceiverCheckTests.answer(try await bob.engine.processMessage(event))
        }

        /// Bob's answer to a welcome rumor mallory forged for him.
        mutating func bobOpens(_ attack: HostileAttack) async throws -> String {
            let keyPackage = try await bench.keyPackage(of: bob)
            let forged = try await forge(attack, target: bob, keyPackage: keyPackage)
            let (wrapper, rumor) = try bench.deliverWelcome(forged.welcomeRumors[0], from: mallory, to: bob)
            _ = try await bob.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
            return "accepted"
        }

        /// Dave's answer to alice's honest welcome rumor after `change`: the rumor is valid up to
        /// whatever `change` breaks, and sealed and gift-wrapped as alice would.
        mutating func daveOpensWelcome(changed change: (inout UnsignedEvent) throws -> Void) async throws -> String {
            let dave = bench.swiftMember("dave")
            let added = try await alice.engine.addMembers(to: group, keyPackages: [try await bench.keyPackage(of: dave)])
            var rumor = added.welcomeRumors[0]
            try change(&rumor)
            let (wrapper, unwrapped) = try bench.deliverWelcome(rumor, from: alice, to: dave)
            _ = try await dave.engine.processWelcome(wrapperID: wrapper, rumor: unwrapped)
            return "accepted"
        }
    }

    /// The receiver's answer in one word: its reason, or "accepted" / "stored".
    static func answer(_ result: ProcessingResult) -> String {
        switch result {
        case .applicationMessage, .commit: "accepted"
        case .pendingProposal: "stored"
        case .ignoredProposal(_, let reason), .unprocessable(_, let reason): reason
        case .rejected(let error): error.code.name
        default: "\(result)"
        }
    }

    static let day: UInt64 = 86_400

    static func attack(for check: MarmotReceiverCheck) -> Attack {
        switch check {
        case .keyPackageAuthor:
            Attack(name: "bob's key package re-signed by mallory as hers, validated by alice", expected: "invalid_key_package") {
                var room = try await Room(seed: 74)
                var unsigned = try await room.bench.keyPackage(of: room.bob).unsigned
                unsigned.pubkey = room.mallory.pubkey
                try await room.alice.engine.validateKeyPackage(
                    try unsigned.signed(with: room.mallory.keypair, using: &room.bench.generator))
                return "accepted"
            }
        case .eventKind:
            Attack(name: "group message re-signed as kind 9", expected: "invalid_tags") {
                var room = try await Room(seed: 60)
                return try await room.bobReceives(try await room.message { $0.kind = .chatMessage })
            }
        case .eventTags:
            Attack(name: "group message with a second `h` tag", expected: "invalid_tags") {
                var room = try await Room(seed: 61)
                return try await room.bobReceives(try await room.message { $0.tags.append(["h", String(repeating: "ab", count: 32)]) })
            }
        case .eventTimeWindow:
            Attack(name: "group message dated 46 days back", expected: "event_too_old") {
                var room = try await Room(seed: 62)
                return try await room.bobReceives(try await room.message { $0.createdAt -= 46 * Self.day })
            }
        case .eventSignature:
            Attack(name: "group message whose signature is off by one bit", expected: "invalid_input") {
                var room = try await Room(seed: 63)
                let event = try await room.message { _ in }
                var json = event.json()
                let sig = event.sig.hexString
                var flipped = event.sig
                flipped[63] ^= 1
                json = json.replacingOccurrences(of: sig, with: flipped.hexString)
                return try await room.bobReceives(try Event.decodeUnverified(JSONValue(parsing: json)))
            }
        case .commitAuthorization:
            Attack(name: "non-admin commits an Add (commit-add)", expected: "commit_from_non_admin") {
                var room = try await Room(seed: 64)
                let dave = room.bench.swiftMember("dave")
                let forged = try await room.forge(.commitAdd, target: dave, keyPackage: try await room.bench.keyPackage(of: dave))
                return try await room.bobReceives(forged.events[0])
            }
        case .proposerRights:
            Attack(
                name: "admin's rename carrying by reference a non-admin's Remove of bob, stored by both as MDK 0.8.0 does",
                expected: "commit_from_non_admin"
            ) {
                let room = try await Room(seed: 65)
                let proposal = try await room.forge(.proposeRemove, target: room.bob).events[0]
                try await MarmotReceiverCheck.$disabled.withValue([.nonAdminProposal]) {
                    for member in [room.alice, room.bob] { _ = try await member.engine.processMessage(proposal) }
                }
                // alice's builder skips its own policy filter (ownCommitPolicy), as a modified
                // client would: the receiver's rule is what is shown.
                let rename = try await MarmotReceiverCheck.$disabled.withValue(MarmotReceiverCheck.disabled.union([.ownCommitPolicy])) {
                    try await room.alice.engine.updateGroupData(of: room.group, GroupDataChanges(name: "renamed"))
                }
                return try await room.bobReceives(rename.event)
            }
        case .pathIdentity:
            Attack(name: "admin's commit whose UpdatePath leaf names another member (AdminPolicy)", expected: "admin.identityChanged") {
                var bench = MemberBench(seed: 66)
                let alice = bench.swiftMember("alice")
                let bob = bench.swiftMember("bob")
                return policyAnswer(
                    CommitSummary(
                        committer: 0, committerIdentity: alice.pubkey, proposals: [], pathCredential: .basic(identity: bob.pubkey.bytes)),
                    admins: [alice])
            }
        case .updateIdentity:
            Attack(
                name: "admin alice's commit carrying by reference an Update from mallory whose leaf names alice (AdminPolicy)",
                expected: "admin.identityChanged"
            ) {
                // The leaf names the committer, so a check against the committer (not the proposer) passes it.
                var bench = MemberBench(seed: 73)
                let alice = bench.swiftMember("alice")
                let mallory = bench.swiftMember("mallory")
                let leaf = try KeyPackageEvent.validate(try await bench.keyPackage(of: alice), now: bench.keyPackageTime).keyPackage
                    .leafNode
                return policyAnswer(
                    CommitSummary(
                        committer: 0, committerIdentity: alice.pubkey, proposals: [(.update(leaf), .member(leafIndex: 2))],
                        pathCredential: nil, proposerIdentities: [2: mallory.pubkey]),
                    admins: [alice])
            }
        case .adminRemains:
            Attack(name: "admin's commit naming a non-member as the only admin", expected: "last_admin") {
                var room = try await Room(seed: 67)
                let dave = room.bench.swiftMember("dave")
                let commit = try await MarmotReceiverCheck.$disabled.withValue([.adminRemains]) {
                    try await room.alice.engine.updateGroupData(of: room.group, GroupDataChanges(admins: [dave.pubkey]))
                }
                return try await room.bobReceives(commit.event)
            }
        case .nonAdminProposal:
            Attack(name: "non-admin proposes to remove bob (propose-remove)", expected: "proposal_from_non_admin") {
                let room = try await Room(seed: 68)
                return try await room.bobReceives(try await room.forge(.proposeRemove, target: room.bob).events[0])
            }
        case .welcomeIntoHeldGroup:
            // Resent by alice, who signed it: the replay a third party makes is refused first as
            // not its author's (welcomerIsSigner).
            Attack(name: "the Welcome bob joined by, resent by alice, who signed it (resent-welcome)", expected: "invalid_welcome") {
                var room = try await Room(seed: 69)
                return try await room.bobOpensResent(from: room.alice, in: room.group)
            }
        case .welcomeOntoHeldH:
            Attack(name: "Welcome to a second group on bob's group's `h` (lookalike-group)", expected: "invalid_welcome") {
                var room = try await Room(seed: 70)
                return try await room.bobOpens(.lookalikeGroup)
            }
        case .welcomeCipherSuite:
            // A real group of suite 0x0003 (the other suite our MLS implements) welcoming dave's
            // suite-0x0001 key package; its creator skips MLS's Add check of the key package's suite.
            Attack(
                name: "Welcome into a real group of suite 0x0003 for dave's suite-0x0001 key package",
                expected: "invalid_welcome: welcome cipher suite 3"
            ) {
                try await daveOpensForeignWelcome(
                    seed: 75, suite: .x25519ChaCha20Poly1305SHA256Ed25519, senderSkips: [.keyPackageCipherSuite])
            }
        case .welcomeRumorTags:
            Attack(name: "alice's welcome rumor to dave without its `e` tag", expected: "invalid_welcome") {
                var room = try await Room(seed: 76)
                return try await room.daveOpensWelcome { $0.tags.removeAll { $0.first == "e" } }
            }
        case .welcomeRumorKind:
            Attack(name: "alice's welcome rumor to dave as kind 14", expected: "invalid_welcome") {
                var room = try await Room(seed: 77)
                let dave = room.bench.swiftMember("dave")
                let added = try await room.alice.engine.addMembers(to: room.group, keyPackages: [try await room.bench.keyPackage(of: dave)])
                let (wrapper, honest) = try room.bench.deliverWelcome(added.welcomeRumors[0], from: room.alice, to: dave)
                var rumor = honest
                rumor.kind = Kind(rawValue: 14)
                _ = try await dave.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
                return "accepted"
            }
        case .senderRemoved:
            Attack(name: "message written after its sender's removal (removed-member-message)", expected: "sender_removed") {
                let room = try await Room(seed: 71)
                room.clock.advance(by: 5)
                let removal = try await room.alice.engine.removeMembers(from: room.group, pubkeys: [room.mallory.pubkey])
                try await MemberBench.commit(removal, by: room.alice, to: [room.bob, room.mallory])
                room.clock.advance(by: 5)
                return try await room.bobReceives(try await room.forge(.removedMemberMessage).events[0])
            }
        case .rumorAuthor:
            Attack(name: "mallory's message whose inner rumor names alice as author", expected: "author_mismatch") {
                let room = try await Room(seed: 72)
                let event = try await room.mallory.engine.createMessage(
                    in: room.group, sender: room.alice.pubkey, kind: .chatMessage, content: "from alice", tags: [])
                return try await room.bobReceives(event)
            }
        case .keyPackageKind:
            Attack(name: "bob's key package re-signed as kind 1", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 77) { $0.kind = Kind(rawValue: 1) }
            }
        case .keyPackageDTag:
            Attack(name: "bob's kind-30443 key package without its `d` tag", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 78, tag("d", nil))
            }
        case .keyPackageVersionTag:
            Attack(name: "bob's key package tagged mls_protocol_version 2.0", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 79, tag("mls_protocol_version", ["mls_protocol_version", "2.0"]))
            }
        case .keyPackageSuiteTag:
            Attack(name: "bob's key package tagged mls_ciphersuite 0x0003", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 80, tag("mls_ciphersuite", ["mls_ciphersuite", "0x0003"]))
            }
        case .keyPackageExtensionsTag:
            Attack(name: "bob's key package whose mls_extensions omits 0xf2ee", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 81, tag("mls_extensions", ["mls_extensions", "0x000a"]))
            }
        case .keyPackageRelaysTag:
            Attack(name: "bob's key package whose relays tag is an http:// URL", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 82, tag("relays", ["relays", "http://relay.one.test"]))
            }
        case .keyPackageProposalsTag:
            Attack(name: "bob's key package tagged mls_proposals 0x0008", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 83, tag("mls_proposals", ["mls_proposals", "0x0008"]))
            }
        case .keyPackageRef:
            Attack(name: "bob's key package whose `i` tag names another KeyPackageRef", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 84, tag("i", ["i", String(repeating: "00", count: 32)]))
            }
        case .keyPackageLifetime:
            Attack(name: "bob's key package validated 85 days after it was made (lifetime 84 days)", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackage(seed: 85, later: 85 * Self.day) { _ in }
            }
        case .groupDataVersion:
            Attack(name: "Welcome into a real group whose 0xF2EE version is 0", expected: "invalid_welcome: groupData.invalid: version 0") {
                try await daveOpensForeignWelcome(seed: 92, suite: MarmotCapabilities.suite) { $0.version = 0 }
            }
        case .groupDataRelays:
            Attack(
                name: "Welcome into a real group whose 0xF2EE relays list an http:// URL",
                expected: "invalid_welcome: groupData.invalid: relay http://relay.one.test is not a ws(s):// URL"
            ) {
                try await daveOpensForeignWelcome(seed: 86, suite: MarmotCapabilities.suite) { $0.relays = ["http://relay.one.test"] }
            }
        case .groupDataImages:
            Attack(
                name: "Welcome into a real group whose 0xF2EE image_hash has 5 bytes",
                expected: "invalid_welcome: groupData.invalid: image_hash has 5 bytes, expected 0 or 32"
            ) {
                try await daveOpensForeignWelcome(seed: 93, suite: MarmotCapabilities.suite) { $0.imageHash = [1, 2, 3, 4, 5] }
            }
        case .welcomeForOurKeyPackage:
            Attack(
                name: "alice's Welcome to dave delivered to erin, who holds a key package of her own",
                expected: "invalid_welcome: the welcome is for none of our key packages"
            ) {
                try await erinOpensDavesWelcome(seed: 87)
            }
        case .rumorUTF8:
            Attack(
                name: "application data whose rumor JSON holds the byte 0xFF where alice wrote U+FFFD (ApplicationRumor)",
                expected: "message.invalidRumor: application data is not UTF-8"
            ) {
                try bobReadsRumor(seed: 88)
            }
        case .groupEventLength:
            Attack(
                name: "kind-445 content of 20 bytes, shorter than nonce and tag (GroupEventCipher)",
                expected: "groupEvent.undecryptable: content of 20 bytes is shorter than nonce and tag"
            ) {
                openShortContent(seed: 89, length: 20)
            }
        case .keyPackageEventSignature:
            Attack(name: "bob's key-package event whose signature is off by one bit", expected: "invalid_key_package") {
                try await aliceValidatesBobsKeyPackageWithFlippedSignature(seed: 94)
            }
        case .keyPackageEncodingTag:
            Attack(name: "bob's key package without its `encoding` tag", expected: "invalid_encoding") {
                try await aliceValidatesBobsKeyPackage(seed: 95, tag("encoding", nil))
            }
        case .rollbackProposalPolicy, .plaintextDecodes, .reInitRefused, .groupDataKnownVersion, .groupDataOrder,
            .replayedCommit, .groupIDCollision, .welcomeIntoLeftGroup, .welcomerIsSigner, .ownCommitPolicy:
            roundTwoAttack(for: check)
        case .keyPackageRetired, .groupRecordCap, .groupIsolation, .eventIDRetention:
            capAttack(for: check) ?? Attack(name: "none", expected: "an attack") { "none" }
        }
    }

    /// MIP-03's answer to a commit, for the identity rules no forged commit reaches yet.
    static func policyAnswer(_ summary: CommitSummary, admins: [Member]) -> String {
        do { try AdminPolicy.authorize(summary, admins: admins.map(\.pubkey)) } catch { return error.code.name }
        return "accepted"
    }

    /// The receiver's answer to an attack, with `check` (if any) switched off.
    static func outcome(of attack: Attack, disabling check: MarmotReceiverCheck? = nil) async -> String {
        await MarmotReceiverCheck.$disabled.withValue(check.map { [$0] } ?? []) {
            do { return try await attack.run() } catch let error as EngineError { return error.code.name } catch { return "\(error)" }
        }
    }

    @Test(arguments: MarmotReceiverCheck.allCases)
    func eachCheckAloneStopsItsAttack(check: MarmotReceiverCheck) async {
        let attack = Self.attack(for: check)
        #expect(await Self.outcome(of: attack) == attack.expected, "with every check on")
        #expect(await Self.outcome(of: attack, disabling: check) != attack.expected, "with \(check.rawValue) off")
    }

    @Test(arguments: GiftWrapCheck.allCases)
    func eachGiftWrapCheckAloneStopsItsAttack(check: GiftWrapCheck) async {
        let attack = Self.attack(for: check)
        #expect(await Self.giftWrapOutcome(of: attack, disabling: nil) == attack.expected, "with every check on")
        #expect(await Self.giftWrapOutcome(of: attack, disabling: check) == "accepted", "with \(check.rawValue) off")
    }

    /// Every switch has its row in the document, and every row shows the check making a difference.
    @Test func everySwitchHasAProofRow() throws {
        let rows = try GeneratedDocument.checkRows(.fromMarker, of: "docs/receiver-checks.md", marker: GeneratedDocument.engineChecksMarker)
        #expect(rows.map(\.check) == MarmotReceiverCheck.allCases.map(\.rawValue) + GiftWrapCheck.allCases.map(\.rawValue))
        for row in rows { #expect(row.on != row.off, "\(row.check)") }
    }

    @Test func theListOfEngineChecksIsCurrent() async throws {
        let intro = [
            GeneratedDocument.engineChecksMarker,
            "",
            "Generated by `Tests/NativeSwiftEngineTests/EngineReceiverCheckTests.swift`. The MUST-reject rules",
            "our engine enforces above MLS (MIP-00…03), each with a test switch",
            "(`Sources/Marmot/Rules/MarmotReceiverCheck.swift`); for each, an attack on `NativeSwiftEngine`",
            "built by the hostile member's forgeries (`forge`) or a re-signed envelope: bob's answer with",
            "every check on, and with that one check off. Duplicate extension types (RFC 9420 §13.4) are",
            "refused by the MLS decoder, so they are the `duplicateExtensions` row above (scenario",
            "`scenarios/hostile/duplicate-group-data.yaml`). Key-package rows are alice's answer to bob's",
            "key-package event with one field broken and re-signed by bob; Welcome rows build a real group",
            "with our MLS library outside any engine where no engine would make it. A row naming a part of",
            "Marmot (AdminPolicy, ApplicationRumor, GroupEventCipher) drives it directly, as the engine calls",
            "it, where the engine's one-word answer would not tell the check from what follows it.",
        ]
        var rows: [GeneratedDocument.CheckRow] = []
        for check in MarmotReceiverCheck.allCases {
            let attack = Self.attack(for: check)
            rows.append((check.rawValue, attack.name, await Self.outcome(of: attack), await Self.outcome(of: attack, disabling: check)))
        }
        var giftWrapRows: [GeneratedDocument.CheckRow] = []
        for check in GiftWrapCheck.allCases {
            let attack = Self.attack(for: check)
            giftWrapRows.append(
                (
                    check.rawValue, attack.name, await Self.giftWrapOutcome(of: attack, disabling: nil),
                    await Self.giftWrapOutcome(of: attack, disabling: check)
                ))
        }
        let giftWrapIntro = [
            "### Gift wraps (NIP-59)",
            "",
            "The rules of `GiftWrap.unwrap` (`Sources/Nostr/NIP59/GiftWrapCheck.swift`), which GroupCore applies to",
            "every gift wrap it receives (welcomes, link requests, channel control) before any engine sees the",
            "rumor: alice's rumor for bob, sealed and wrapped by hand so that one layer breaks one rule.",
        ]
        let generated =
            GeneratedDocument.checkTable(intro: intro, rows: rows) + "\n"
            + GeneratedDocument.checkTable(intro: giftWrapIntro, rows: giftWrapRows) + "\n"
            + Self.unswitched.joined(separator: "\n") + "\n\n"
        let current = try GeneratedDocument.current(
            .fromMarker, of: "docs/receiver-checks.md", marker: GeneratedDocument.engineChecksMarker, generated: generated)
        #expect(current == generated)
    }
}
