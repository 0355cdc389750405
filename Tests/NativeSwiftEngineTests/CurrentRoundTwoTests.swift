import EngineInterface
import MLS
import Marmot
import Nostr
import Testing

@testable import NativeSwiftEngine

/// The second receiver review's rules (issue 30: N2, N3, N5) on the current-profile path: each
/// attack, built by the hostile member for a current group, is refused for the same reason as on a
/// legacy group, and each rule's switch (MarmotReceiverCheck) lets it through when off, so that the
/// refusal is the rule's and not something after it.
struct CurrentRoundTwoTests {
    typealias Member = CurrentProfileTests.Member

    /// Side: mallory's own current group with bob (mallory its only admin), beside the team's.
    static func side(of team: CurrentHostileTests.Team) async throws -> MLSGroupID {
        let created = try await team.mallory.engine.createGroup(
            GroupCreation(
                creator: team.mallory.pubkey, keyPackages: [try await CurrentProfileTests.keyPackage(of: team.bob)], name: "Side",
                relays: CurrentProfileTests.relays, admins: [team.mallory.pubkey]))
        let pending = try await team.bob.engine.processWelcome(
            wrapperID: try EventID(bytes: [UInt8](repeating: 0x5D, count: 32)), rumor: created.welcomeRumors[0])
        _ = try await team.bob.engine.acceptWelcome(pending.id)
        return created.group.mlsGroupID
    }

    static func forge(_ attack: HostileAttack, by member: Member, in group: MLSGroupID, target: Member? = nil) async throws
        -> ForgedTraffic
    {
        let h = try await member.engine.group(group).nostrGroupID
        let keyPackage: Event? = if let target { try await CurrentProfileTests.keyPackage(of: target) } else { nil }
        return try await member.engine.forge(
            ForgeRequest(attack: attack, nostrGroupID: h, target: target?.pubkey, targetKeyPackage: keyPackage, sender: member.pubkey))
    }

    /// bob's answer to a welcome rumor: the error code of its refusal, or "accepted".
    static func opens(_ rumor: UnsignedEvent, as member: Member, wrapper: UInt8) async -> String {
        do {
            _ = try await member.engine.processWelcome(wrapperID: try EventID(bytes: [UInt8](repeating: wrapper, count: 32)), rumor: rumor)
            return "accepted"
        } catch let error as EngineError {
            return error.code.name
        } catch {
            return "\(error)"
        }
    }

    static func without<T>(_ check: MarmotReceiverCheck?, _ body: () async throws -> T) async rethrows -> T {
        try await MarmotReceiverCheck.$disabled.withValue(check.map { [$0] } ?? []) { try await body() }
    }

    /// N2: mallory's app_data_update of the routing component (0x8004) moving Side onto Team's `h`.
    @Test(arguments: [nil, MarmotReceiverCheck.groupIDCollision])
    func aCommitMovingAGroupOntoAnothersHIsRefused(disabling check: MarmotReceiverCheck?) async throws {
        try await Self.without(check) {
            let team = try await CurrentHostileTests.team(malloryAdmin: false, seed: 400)
            let side = try await Self.side(of: team)
            let forged = try await Self.forge(.retargetGroupID, by: team.mallory, in: side)
            let epoch = try await team.bob.engine.group(side).epoch
            let answer = EngineReceiverCheckTests.answer(try await team.bob.engine.processMessage(forged.events[0]))
            if check == nil {
                #expect(answer == EngineError.Code.groupIDCollision.name)
                #expect(try await team.bob.engine.group(side).epoch == epoch)
            } else {
                #expect(answer == "accepted", "with the check off the commit is a valid admin's routing change")
            }
        }
    }

    /// N3: the Welcome bob joined Side by, resent by mallory after she removed him.
    @Test(arguments: [nil, MarmotReceiverCheck.welcomeIntoLeftGroup])
    func aResentWelcomeIntoALeftGroupIsRefused(disabling check: MarmotReceiverCheck?) async throws {
        try await Self.without(check) {
            let team = try await CurrentHostileTests.team(malloryAdmin: false, seed: 410)
            let side = try await Self.side(of: team)
            let removal = try await team.mallory.engine.removeMembers(from: side, pubkeys: [team.bob.pubkey])
            try await team.mallory.engine.mergePendingCommit(in: side)
            #expect(try await team.bob.engine.processMessage(removal.event) == .commit(side))
            #expect(try await team.bob.engine.group(side).state == .inactive)
            let resent = try await Self.forge(.resentWelcome, by: team.mallory, in: side, target: team.bob)
            let answer = await Self.opens(resent.welcomeRumors[0], as: team.bob, wrapper: 0x61)
            #expect(answer == (check == nil ? EngineError.Code.invalidWelcome.name : "accepted"))
        }
    }

    /// N3: alice's Welcome to dave, sent to him by mallory as hers (the rumor's author is not the
    /// GroupInfo signer).
    @Test(arguments: [nil, MarmotReceiverCheck.welcomerIsSigner])
    func aWelcomeSentByAnotherThanItsSignerIsRefused(disabling check: MarmotReceiverCheck?) async throws {
        try await Self.without(check) {
            let team = try await CurrentHostileTests.team(malloryAdmin: false, seed: 420)
            let dave = CurrentProfileTests.member(424, .current)
            let added = try await team.alice.engine.addMembers(
                to: team.group, keyPackages: [try await CurrentProfileTests.keyPackage(of: dave)])
            var rumor = added.welcomeRumors[0]
            // Twin: sent by alice, who signed its GroupInfo, it is taken (held pending, not joined).
            #expect(await Self.opens(rumor, as: dave, wrapper: 0x70) == "accepted")
            rumor.pubkey = team.mallory.pubkey
            let answer = await Self.opens(rumor, as: dave, wrapper: 0x71)
            #expect(answer == (check == nil ? EngineError.Code.invalidWelcome.name : "accepted"))
        }
    }

    /// N5: a current Welcome for bob's current key package whose tree is wider than the cap:
    /// refused as it is read (not `profile_mismatch`: the attack is framed for the current profile).
    @Test func aWelcomeWithAnOversizedTreeIsRefused() async throws {
        let team = try await CurrentHostileTests.team(malloryAdmin: false, seed: 430)
        let forged = try await Self.forge(.oversizedTree, by: team.mallory, in: team.group, target: team.bob)
        #expect(try CurrentWelcomeRumor.parse(forged.welcomeRumors[0]).welcome.cipherSuite == MarmotCapabilities.suite.id)
        #expect(await Self.opens(forged.welcomeRumors[0], as: team.bob, wrapper: 0x80) == EngineError.Code.invalidWelcome.name)
    }
}

extension CurrentRoundTwoTests {
    /// N4: non-admin bob's self-update while admin mallory's Remove of alice is stored: bob's commit
    /// leaves the Remove out (a non-admin commits only a path and SelfRemoves), so admin alice
    /// applies it; with the filter off, bob's commit carries the Remove and is refused (by bob's
    /// own builder, as every receiver would refuse it).
    @Test(arguments: [nil, MarmotReceiverCheck.ownCommitPolicy])
    func aNonAdminsCommitLeavesAnAdminsProposalOut(disabling check: MarmotReceiverCheck?) async throws {
        try await Self.without(check) {
            let team = try await CurrentHostileTests.team(malloryAdmin: true, seed: 440)
            let h = try await team.mallory.engine.group(team.group).nostrGroupID
            let proposal = try await team.mallory.engine.forge(
                ForgeRequest(
                    attack: .proposeRemove, nostrGroupID: h, target: team.alice.pubkey, targetKeyPackage: nil,
                    sender: team.mallory.pubkey))
            for member in [team.alice, team.bob] {
                #expect(try await member.engine.processMessage(proposal.events[0]) == .pendingProposal(team.group))
            }
            let answer: String
            do {
                let update = try await team.bob.engine.selfUpdate(in: team.group)
                answer = EngineReceiverCheckTests.answer(try await team.alice.engine.processMessage(update.event))
            } catch let error as EngineError {
                answer = error.code.name
            } catch {
                answer = "\(error)"
            }
            if check == nil {
                #expect(answer == "accepted")
                #expect(try await team.alice.engine.members(of: team.group).contains(team.alice.pubkey))
            } else {
                #expect(answer != "accepted", "with the filter off the self-update carries the admin's Remove")
            }
        }
    }
}
