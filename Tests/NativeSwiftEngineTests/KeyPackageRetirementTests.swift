import EngineInterface
import EngineTestSupport
import Nostr
import Testing

@testable import NativeSwiftEngine

/// Issue 30, N3: a one-time key package (no last_resort) is retired by the first Welcome that uses
/// it, so a replay of that Welcome, or a second Welcome for the same key-package event, is refused
/// with the reason; a last-resort one keeps serving Welcomes (MIP-00).
@Suite struct KeyPackageRetirementTests {
    @Test func aReplayedWelcomeOnARetiredKeyPackageIsRefusedWithTheReason() async throws {
        var room = try await EngineReceiverCheckTests.Room(seed: 102)
        let dave = room.bench.swiftMember("dave")
        let keyPackage = try await EngineReceiverCheckTests.oneTimeKeyPackage(of: dave, bench: &room.bench)
        let added = try await room.alice.engine.addMembers(to: room.group, keyPackages: [keyPackage])
        let (wrapper, rumor) = try room.bench.deliverWelcome(added.welcomeRumors[0], from: room.alice, to: dave)
        let pending = try await dave.engine.processWelcome(wrapperID: wrapper, rumor: rumor)
        _ = try await dave.engine.acceptWelcome(pending.id)
        let engine = try #require(dave.engine as? NativeSwiftEngine)
        #expect(await engine.keyPackages.isEmpty, "the one-time key package's private half is gone")

        // The same Welcome, gift-wrapped again (a new wrapper): refused for the retired key
        // package, before any check of the group it names.
        let (again, replayed) = try room.bench.deliverWelcome(added.welcomeRumors[0], from: room.alice, to: dave)
        #expect(again != wrapper)
        await #expect {
            _ = try await dave.engine.processWelcome(wrapperID: again, rumor: replayed)
        } throws: { error in
            let error = try #require(error as? EngineError)
            return error.code == .invalidWelcome && error.reason.contains("retired")
        }
    }

    @Test func aLastResortKeyPackageServesASecondWelcome() async throws {
        var room = try await EngineReceiverCheckTests.Room(seed: 103)
        let dave = room.bench.swiftMember("dave")
        let keyPackage = try await room.bench.keyPackage(of: dave)
        let added = try await room.alice.engine.addMembers(to: room.group, keyPackages: [keyPackage])
        let (wrapper, rumor) = try room.bench.deliverWelcome(added.welcomeRumors[0], from: room.alice, to: dave)
        _ = try await dave.engine.acceptWelcome(try await dave.engine.processWelcome(wrapperID: wrapper, rumor: rumor).id)
        let side = try await room.mallory.engine.createGroup(
            GroupCreation(
                creator: room.mallory.pubkey, keyPackages: [keyPackage], name: "Side", description: "", relays: MemberBench.relays,
                admins: [room.mallory.pubkey]))
        let (sideWrapper, sideRumor) = try room.bench.deliverWelcome(side.welcomeRumors[0], from: room.mallory, to: dave)
        let second = try await dave.engine.processWelcome(wrapperID: sideWrapper, rumor: sideRumor)
        #expect(second.groupName == "Side")
    }
}
