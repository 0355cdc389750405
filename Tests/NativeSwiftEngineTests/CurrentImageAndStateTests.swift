import EngineInterface
import Foundation
import NativeSwiftEngine
import Nostr
import Testing

/// The current profile's group image (0x8002) through the engine, and the state file of a
/// current-profile engine (version 2): a restart comes back current with its account keys, its
/// groups' images still open, while a legacy engine's file stays version 1.
struct CurrentImageAndStateTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("group picture".utf8)

    /// alice (persisting at `path` when given) creates a group with bob and sets its image; bob
    /// applies the commit.
    static func groupWithImage(alice: CurrentProfileTests.Member, bob: CurrentProfileTests.Member) async throws
        -> (group: MLSGroupID, prepared: PreparedGroupImage)
    {
        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [try await CurrentProfileTests.keyPackage(of: bob)], name: "Pictured",
                relays: CurrentProfileTests.relays, admins: [alice.pubkey]))
        let pending = try await bob.engine.processWelcome(
            wrapperID: try EventID(bytes: [UInt8](repeating: 2, count: 32)), rumor: created.welcomeRumors[0])
        let group = try await bob.engine.acceptWelcome(pending.id).mlsGroupID
        let prepared = try await alice.engine.prepareGroupImage(png, mimeType: "Image/PNG")
        let commit = try await alice.engine.updateGroupData(of: group, GroupDataChanges(image: prepared.image))
        try await alice.engine.mergePendingCommit(in: group)
        #expect(try await bob.engine.processMessage(commit.event) == .commit(group))
        return (group, prepared)
    }

    @Test func imageTravelsAsComponent8002() async throws {
        let alice = CurrentProfileTests.member(31, .current)
        let bob = CurrentProfileTests.member(32, .current)
        let (group, prepared) = try await Self.groupWithImage(alice: alice, bob: bob)
        #expect(try await bob.engine.group(group).image == prepared.image)
        // bob's engine opens the blob with what the component gave it (key, nonce, media type as AAD).
        #expect(try await bob.engine.decryptGroupImage(prepared.encrypted, with: prepared.image) == Self.png)
        var tampered = prepared.encrypted
        tampered[3] ^= 0x10
        await #expect(throws: EngineError(.imageHashMismatch, "")) {
            try await bob.engine.decryptGroupImage(tampered, with: prepared.image)
        }
        // An image this engine did not prepare cannot be committed: 0x8002 needs its upload key and media type.
        let foreign = try #require(GroupImage(hash: [UInt8](repeating: 1, count: 32), key: prepared.image.key, nonce: prepared.image.nonce))
        await #expect(throws: EngineError(.invalidInput, "")) {
            try await alice.engine.updateGroupData(of: group, GroupDataChanges(image: foreign))
        }
        // A legacy engine keeps MIP-01's scheme: its blob does not open under the current one (and back).
        let legacy = CurrentProfileTests.member(33, .legacy)
        let legacyImage = try await legacy.engine.prepareGroupImage(Self.png, mimeType: "image/png")
        #expect(try await legacy.engine.decryptGroupImage(legacyImage.encrypted, with: legacyImage.image) == Self.png)
        await #expect(throws: EngineError(.imageUndecryptable, "")) {
            try await legacy.engine.decryptGroupImage(prepared.encrypted, with: prepared.image)
        }
    }

    @Test func currentStateFileRestartsCurrent() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/alice.state"
        var generator = SplitMix(seed: 41)
        let keypair = Keypair.generate(using: &generator)
        let now = CurrentProfileTests.now
        let engine = try NativeSwiftEngine(
            generator: SplitMix(seed: 42), clock: { now }, stateFile: path, profile: .current, accountKeys: [keypair])
        let alice = CurrentProfileTests.Member(keypair: keypair, engine: engine)
        let bob = CurrentProfileTests.member(43, .current)
        let (group, prepared) = try await Self.groupWithImage(alice: alice, bob: bob)

        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[8..<10]) == [0, 3], "a current-profile engine writes version 3")
        #expect(try NativeSwiftEngine.reencodedState(bytes) == bytes, "one state, one encoding")

        // Restarted with no profile and no key given: the file brings both back.
        let restarted = try NativeSwiftEngine(generator: SplitMix(seed: 44), clock: { now }, stateFile: path)
        #expect(await restarted.profile == .current)
        #expect(try await restarted.group(group).image == prepared.image)
        #expect(try await restarted.decryptGroupImage(prepared.encrypted, with: prepared.image) == Self.png)
        let draft = try await restarted.createKeyPackage(for: keypair.publicKey, relays: CurrentProfileTests.relays, protected: false)
        #expect(draft.tags.contains { $0.first == "app_components" }, "a current-profile key package, its leaf proven by the kept key")
        // And it still talks with bob in the group.
        let message = try await restarted.createMessage(in: group, sender: keypair.publicKey, kind: 9, content: "back", tags: [])
        guard case .applicationMessage(let received) = try await bob.engine.processMessage(message) else {
            Issue.record("bob could not open the restarted member's message")
            return
        }
        #expect(received.rumor.content == "back")
    }

    @Test func legacyStateFileHasNoAccountKeys() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/legacy.state"
        var generator = SplitMix(seed: 51)
        let keypair = Keypair.generate(using: &generator)
        let engine = try NativeSwiftEngine(
            generator: SplitMix(seed: 52), clock: { CurrentProfileTests.now }, stateFile: path, profile: .legacy, accountKeys: [keypair])
        _ = try await engine.createKeyPackage(for: keypair.publicKey, relays: CurrentProfileTests.relays, protected: false)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[8..<10]) == [0, 2], "a legacy engine's file is version 2, without account keys")
        #expect(!bytes.contains(subsequence: keypair.secretKey.bytes))
        let restarted = try NativeSwiftEngine(generator: SplitMix(seed: 53), clock: { CurrentProfileTests.now }, stateFile: path)
        #expect(await restarted.profile == .legacy)
    }

    @Test func damagedCurrentStateIsTyped() async throws {
        let directory = try StateDirectory()
        let path = directory.path + "/damaged.state"
        var generator = SplitMix(seed: 61)
        let keypair = Keypair.generate(using: &generator)
        let engine = try NativeSwiftEngine(
            generator: SplitMix(seed: 62), clock: { CurrentProfileTests.now }, stateFile: path, profile: .current, accountKeys: [keypair])
        _ = try await engine.createKeyPackage(for: keypair.publicKey, relays: CurrentProfileTests.relays, protected: false)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The first account key follows the magic, the version and the vector's one-byte length:
        // zeroed, it is no secret key.
        var zeroed = bytes
        for index in 11..<43 { zeroed[index] = 0 }
        #expect(throws: EngineError(.invalidStateFile, "")) { try NativeSwiftEngine.reencodedState(zeroed) }
        var version4 = bytes
        version4[9] = 4
        #expect(throws: EngineError(.invalidStateFile, "")) { try NativeSwiftEngine.reencodedState(version4) }
        // Read as a legacy file (version 2), a current one's account keys are no group map.
        var asLegacy = bytes
        asLegacy[9] = 2
        #expect(throws: EngineError(.invalidStateFile, "")) { try NativeSwiftEngine.reencodedState(asLegacy) }
        #expect(throws: EngineError(.invalidStateFile, "")) { try NativeSwiftEngine.reencodedState(bytes + [0]) }
        #expect(try NativeSwiftEngine.reencodedState(bytes) == bytes)
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
