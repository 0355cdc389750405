import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import Nostr
import Testing

/// MDK's refusals arrive as typed errors with the codes docs/driver-protocol.md lists.
@Suite(
    .enabled(
        if: MDKDriver.isAvailable,
        "peer test: no .venv with mdk-python (required when CI is set): run ci/setup to enable the MDK interop tests"))
struct MDKDriverErrorTests {
    @Test func refusalsCarryProtocolCodes() async throws {
        let driver = try await MDKDriver.launch()
        var bench = Bench(driver: driver, seed: 7)
        let alice = try await bench.member("alice")
        let bob = try await bench.member("bob")

        await #expect(throws: EngineError(.instanceExists, "")) {
            _ = try await driver.makeEngine(instance: "alice", encryptionKey: [UInt8](repeating: 1, count: 32))
        }
        await #expect(throws: EngineError(.unknownInstance, "")) { try await driver.call(.groups, ["instance": .string("nobody")]) }
        await #expect(throws: EngineError(.badRequest, "")) {
            try await driver.call(.createInstance, ["instance": .string("x"), "encryption_key": .string("zz")])
        }

        // A key package whose `encoding` tag is missing, correctly signed by its author.
        let draft = try await bob.engine.createKeyPackage(for: bob.pubkey, relays: Bench.relays, protected: false)
        var unsigned = draft.unsignedEvent(author: bob.pubkey, createdAt: Bench.keyPackageTime)
        unsigned.tags.removeAll { $0.first == "encoding" }
        let noEncoding = try unsigned.signed(with: bob.keypair, using: &bench.generator)
        await #expect(throws: EngineError(.invalidEncoding, "")) { try await alice.engine.validateKeyPackage(noEncoding) }
        // The protected variant carries NIP-70's `-` tag.
        let protected = try await bob.engine.createKeyPackage(for: bob.pubkey, relays: Bench.relays, protected: true)
        #expect(protected.tags.contains(["-"]))

        let created = try await alice.engine.createGroup(
            GroupCreation(
                creator: alice.pubkey, keyPackages: [try await bench.keyPackage(of: bob)], name: "Errors",
                relays: Bench.relays, admins: [alice.pubkey]))
        let group = created.group.mlsGroupID
        await #expect(throws: EngineError(.adminCannotLeave, "")) { _ = try await alice.engine.leaveGroup(group) }
        await #expect(throws: EngineError(.lastAdmin, "")) { _ = try await alice.engine.selfDemote(in: group) }
        await #expect(throws: EngineError(.cannotRemoveSelf, "")) {
            _ = try await alice.engine.removeMembers(from: group, pubkeys: [alice.pubkey])
        }
        await #expect(throws: EngineError(.unknownGroup, "")) { _ = try await bob.engine.epoch(of: group) }

        // A welcome whose encoding tag is not base64 is refused; the genuine one can be declined.
        var rumor = created.welcomeRumors[0]
        rumor.tags = rumor.tags.map { $0.first == "encoding" ? ["encoding", "hex"] : $0 }
        let (wrapperID, tampered) = try bench.deliverWelcome(rumor, from: alice, to: bob)
        await #expect(throws: EngineError(.invalidWelcome, "")) {
            _ = try await bob.engine.processWelcome(wrapperID: wrapperID, rumor: tampered)
        }
        let (genuineWrapper, genuine) = try bench.deliverWelcome(created.welcomeRumors[0], from: alice, to: bob)
        let welcome = try await bob.engine.processWelcome(wrapperID: genuineWrapper, rumor: genuine)
        try await bob.engine.declineWelcome(welcome.id)
        #expect(try await bob.engine.pendingWelcomes().isEmpty)
        await #expect(throws: EngineError(.unknownWelcome, "")) { _ = try await bob.engine.acceptWelcome(wrapperID) }

        try await driver.destroy(try #require(bob.engine as? ExternalProcessEngine))
        await #expect(throws: EngineError(.unknownInstance, "")) { _ = try await bob.engine.groups() }
        await driver.shutdown()
    }
}
