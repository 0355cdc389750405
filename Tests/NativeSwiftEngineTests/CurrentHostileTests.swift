import EngineInterface
import MLS
import Nostr
import Testing

@testable import NativeSwiftEngine

/// The hostile member on a current-profile group (issue 28): each forgery an honest current member
/// refuses for its own rule, beside the honest twin that passes; the kind-445 signature checked
/// before the tags; a legacy member's typed refusal of a current Welcome.
struct CurrentHostileTests {
    typealias Member = CurrentProfileTests.Member

    struct Team {
        let alice: Member
        let bob: Member
        let mallory: Member
        let group: MLSGroupID
    }

    /// alice (admin), bob and mallory (also admin when `malloryAdmin`) in one current group, all joined.
    static func team(malloryAdmin: Bool, seed: UInt64) async throws -> Team {
        let alice = CurrentProfileTests.member(seed, .current)
        let bob = CurrentProfileTests.member(seed + 1, .current)
        let mallory = CurrentProfileTests.member(seed + 2, .current)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey,
                keyPackages: [try await CurrentProfileTests.keyPackage(of: bob), try await CurrentProfileTests.keyPackage(of: mallory)],
                name: "Team", relays: CurrentProfileTests.relays, admins: malloryAdmin ? [alice.pubkey, mallory.pubkey] : [alice.pubkey]))
        for (index, member) in [bob, mallory].enumerated() {
            let pending = try await member.engine.processWelcome(
                wrapperID: try EventID(bytes: [UInt8](repeating: UInt8(index + 1), count: 32)), rumor: created.welcomeRumors[index])
            _ = try await member.engine.acceptWelcome(pending.id)
        }
        return Team(alice: alice, bob: bob, mallory: mallory, group: created.group.mlsGroupID)
    }

    static func forge(_ attack: HostileAttack, by member: Member, in group: MLSGroupID) async throws -> Event {
        let h = try await member.engine.group(group).nostrGroupID
        let traffic = try await member.engine.forge(
            ForgeRequest(attack: attack, nostrGroupID: h, target: nil, targetKeyPackage: nil, sender: member.pubkey))
        return try #require(traffic.events.first)
    }

    /// The current profile's state and proof forgeries (libmarmot's openmls_forgeries classes),
    /// each by an admin so that only its own rule can refuse it; the reason names that rule.
    @Test(arguments: [
        (HostileAttack.dropAdminPolicy, "component.missing: required component 0x8003"),
        (.dropLifecycle, "component.missing: required component 0x800c"),
        (.dropComponentList, "the lifecycle (0x800c) requirement cannot be dropped"),
        (.emptyAdminList, "0x8003 (marmot.group.admin-policy.v1): the admin list is empty"),
        (.adminNotMember, "is not a member (0x8003)"),
        (.addLeafProofMissing, "the added key package: identityProof.missing"),
        (.addLeafProofForged, "the added key package: identityProof.badSignature"),
        (.leafProofMissing, "the committer's new leaf: identityProof.missing"),
        (.leafProofForged, "the committer's new leaf: identityProof.badSignature"),
        (.leafProofOtherAccount, "the committer's new leaf: identityProof.signerMismatch"),
    ])
    func anAdminsForgeryIsRefusedForItsRule(attack: HostileAttack, named: String) async throws {
        let team = try await Self.team(malloryAdmin: true, seed: 300)
        let epoch = try await team.bob.engine.group(team.group).epoch
        let forged = try await Self.forge(attack, by: team.mallory, in: team.group)
        let result = try await team.bob.engine.processMessage(forged)
        guard case .unprocessable(_, let reason) = result else {
            Issue.record("\(attack.rawValue): bob answered \(result)")
            return
        }
        #expect(reason.hasPrefix("mls.refusedByCaller: ") && reason.contains(named), "\(attack.rawValue): \(reason)")
        #expect(try await team.bob.engine.group(team.group).epoch == epoch)

        // Twin: the same admin's honest change (a rename, an app_data_update of 0x8001) is applied.
        let rename = try await team.mallory.engine.updateGroupData(of: team.group, GroupDataChanges(name: "Renamed"))
        #expect(try await team.bob.engine.processMessage(rename.event) == .commit(team.group))
        #expect(try await team.bob.engine.group(team.group).name == "Renamed")
    }

    /// A non-admin's app_data_update naming itself admin: its commit is `commit_from_non_admin`,
    /// its proposal is ignored (not stored); the same commit by an admin is applied.
    @Test func aNonAdminsAdminUpdateIsRefused() async throws {
        let team = try await Self.team(malloryAdmin: false, seed: 320)
        let commit = try await Self.forge(.commitAdmin, by: team.mallory, in: team.group)
        #expect(try await team.bob.engine.processMessage(commit) == .rejected(EngineError(.commitFromNonAdmin, "")))
        let proposal = try await Self.forge(.proposeAdmin, by: team.mallory, in: team.group)
        #expect(
            try await team.bob.engine.processMessage(proposal)
                == .ignoredProposal(team.group, reason: "proposal_from_non_admin"))
        #expect(try await team.bob.engine.group(team.group).admins == [team.alice.pubkey])

        // Twin: the same kind of change (an app_data_update of the admin list) by an admin is applied.
        let promote = try await team.alice.engine.updateGroupData(
            of: team.group, GroupDataChanges(admins: [team.alice.pubkey, team.bob.pubkey]))
        #expect(try await team.bob.engine.processMessage(promote.event) == .commit(team.group))
    }

    /// transports/nostr.md: the kind-445 id and signature are checked before the tags, so a
    /// forged signature is `invalid_input` on both profiles, and a bad tag on a genuine event
    /// `invalid_tags`.
    @Test func aForgedSignatureIsCheckedBeforeTheTags() async throws {
        let team = try await Self.team(malloryAdmin: false, seed: 340)
        let message = try await team.alice.engine.createMessage(
            in: team.group, sender: team.alice.pubkey, kind: 9, content: "hi", tags: [])
        var generator = SplitMix(seed: 41)
        let stranger = Keypair.generate(using: &generator)
        // Two h tags (bad cardinality) and a signature that is not the id's (another key's, over
        // another id): the signature is what is refused.
        let doubled = try UnsignedEvent(
            pubkey: stranger.publicKey, createdAt: message.createdAt, kind: message.kind, tags: message.tags + message.tags,
            content: message.content
        ).signed(with: stranger, using: &generator)
        guard case .object(var fields) = doubled.jsonValue else {
            Issue.record("an event is not a JSON object")
            return
        }
        guard case .object(let genuine) = message.jsonValue else { return }
        fields["sig"] = genuine["sig"]
        let broken = try Event.decodeUnverified(.object(fields))
        #expect(throws: (any Error).self) { try broken.verify() }
        #expect(try await team.bob.engine.processMessage(broken) == .rejected(EngineError(.invalidInput, "")))
        // Twin: the same tags, genuinely signed, are refused for the tags.
        #expect(try await team.bob.engine.processMessage(doubled) == .rejected(EngineError(.invalidTags, "")))
    }

    /// A legacy member handed a current-profile Welcome refuses it as `profile_mismatch` (so the
    /// app can say this app must upgrade), and joins nothing; the current invitee joins by it.
    @Test func aLegacyMemberRefusesACurrentWelcomeAsProfileMismatch() async throws {
        let alice = CurrentProfileTests.member(360, .current)
        let bob = CurrentProfileTests.member(361, .current)
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [try await CurrentProfileTests.keyPackage(of: bob)], name: "New",
                relays: CurrentProfileTests.relays, admins: [alice.pubkey]))
        let rumor = try #require(created.welcomeRumors.first)
        let wrapper = try EventID(bytes: [UInt8](repeating: 9, count: 32))
        let legacy = CurrentProfileTests.member(362, .legacy)
        do {
            _ = try await legacy.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
            Issue.record("a legacy member took a current Welcome")
        } catch {
            #expect(error.code == .profileMismatch)
            #expect(error.reason.contains("legacy") && error.reason.contains("current"), "the reason names both profiles")
        }
        #expect(try await legacy.engine.pendingWelcomes().isEmpty)
        // Twin: a legacy-framed rumor broken otherwise (no relays) stays invalid_welcome.
        var broken = rumor
        broken.tags = [["e", rumor.tags[0][1]], ["encoding", "base64"]]
        await #expect(throws: EngineError(.invalidWelcome, "")) {
            _ = try await legacy.engine.processWelcome(wrapperID: wrapper, rumor: broken)
        }
        // Twin: the current invitee joins by the same rumor.
        _ = try await bob.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
    }
}
