import ConformanceTestSupport
import TLSCodec
import Testing

@testable import MLS

/// Builders for the negative cases of the sender, leaf-source, capability and joiner rules
/// (ReceiverCheckTests+Rules): each message is valid up to the check under test, the honest sender's
/// own checks skipped (`senderSkips`) where it would refuse to build it.
extension ReceiverCheckTests {
    /// A real X25519 public key, as an ExternalInit's kem_output: any receiver can run the
    /// external-init export against it.
    static func kemOutput(_ world: inout World) throws -> [UInt8] {
        try GroupTests.suite.deriveKeyPair(secret: GroupTests.suite.randomBytes(32, using: &world.generator)).publicKey
    }

    /// A required_capabilities GroupContext extension (§11.1).
    static func requiredCapabilities(extensions: [UInt16] = [], proposals: [UInt16] = []) throws -> Extension {
        let required = RequiredCapabilities(extensionTypes: extensions, proposalTypes: proposals, credentialTypes: [])
        return Extension(type: ExtensionType.requiredCapabilities, data: try required.tlsSerialized())
    }

    /// The group's extensions plus `extra`, as a GroupContextExtensions proposal.
    static func extensions(_ world: World, adding extra: Extension) throws -> Proposal {
        .groupContextExtensions(try #require(world.members[0].group).context.extensions + [extra])
    }

    /// alice commits, honestly, a requirement that every member support SelfRemove (0x000A):
    /// all three list it, so the group keeps them.
    static func requireSelfRemove(_ world: inout World) throws {
        try world.commit(0, adding: [try extensions(world, adding: try requiredCapabilities(proposals: [Proposal.Kind.selfRemove]))])
    }

    /// A new member named `name` whose KeyPackage carries `credential` and `capabilities`.
    static func stranger(
        _ name: String, _ world: inout World, credential: Credential? = nil, capabilities: Capabilities = Capabilities()
    ) throws -> Int {
        let keys = try world.suite.generateSignatureKeyPair(using: &world.generator)
        let keyPackage = try KeyPackagePrivate.generate(
            suite: world.suite, credential: credential ?? .basic(identity: Array(name.utf8)), signatureKeyPair: keys,
            capabilities: capabilities, lifetime: Lifetime(notBefore: 0, notAfter: .max), using: &world.generator)
        world.members.append(GroupTests.Member(name: name, keyPackage: keyPackage, group: nil))
        return world.members.count - 1
    }

    /// dave joins alice, bob and carol by an external commit: an ExternalInit, then `proposals` by
    /// value and, when `byReference`, alice's Remove of carol (proposed first, held by bob) by
    /// reference. He builds it from bob's view of the group, all of which a GroupInfo publishes
    /// but the pending proposal, public on the wire. bob processes it.
    static func bobProcessesExternalCommit(
        _ proposals: (World) throws -> [Proposal], byReference: Bool = false, senderSkips: Set<ReceiverCheck> = []
    ) throws {
        var world = try Builders.threeMembers()
        if byReference { try world.propose(0, .remove(leaf: 2)) }
        let dave = try world.newMember("dave")
        let list = try proposals(world)
        var bob = try #require(world.members[1].group)
        var generator = world.generator
        let message = try ReceiverCheck.$disabled.withValue(ReceiverCheck.disabled.union(senderSkips)) {
            try bob.uncheckedExternalCommit(
                joiner: world.members[dave].keyPackage, adding: list, byReference: byReference, using: &generator)
        }
        _ = try bob.process(MLSMessage(tlsBytes: message.tlsSerialized()))
    }

    /// alice and bob, then carol, whose leaf lists `carolCapabilities` (by default no
    /// non-default proposal type); bob proposes to leave (SelfRemove, 0x000A), alice commits it by
    /// reference, and carol processes the commit.
    static func carolProcessesSelfRemove(
        carolCapabilities: Capabilities = Capabilities(), senderSkips: Set<ReceiverCheck> = []
    ) throws {
        var world = try World.alicePlusBob(groupID: Array("self-remove".utf8))
        let carol = try stranger("carol", &world, capabilities: carolCapabilities)
        try world.commit(0, adding: [.add(world.members[carol].keyPackage.keyPackage)], joining: [carol])
        try world.propose(1, .selfRemove)
        var alice = try #require(world.members[0].group)
        var generator = world.generator
        let created = try ReceiverCheck.$disabled.withValue(ReceiverCheck.disabled.union(senderSkips)) {
            try alice.uncheckedCommit(adding: [], flaw: nil, now: nil, using: &generator)
        }
        var receiver = try #require(world.members[carol].group)
        _ = try receiver.process(MLSMessage(tlsBytes: created.commit.tlsSerialized()))
    }

    /// The signature key pair of the group's external sender 0 (a service), the same in every run.
    static func serviceKey() throws -> (privateKey: [UInt8], publicKey: [UInt8]) {
        var generator = TestGenerator(seed: 0x7365_7276)
        return try GroupTests.suite.generateSignatureKeyPair(using: &generator)
    }

    /// alice commits, honestly, an external_senders extension naming `key` as external sender 0.
    static func registerExternalSender(_ key: [UInt8], _ world: inout World) throws {
        var senders = TLSWriter()
        senders.writeVector([ExternalSender(signatureKey: key, credential: .basic(identity: Array("service".utf8)))])
        try world.commit(0, adding: [try extensions(world, adding: Extension(type: ExtensionType.externalSenders, data: senders.bytes))])
    }

    /// alice's application message to bob as a PublicMessage, her own refusal to send it skipped.
    static func bobReceivesPublicApplication() throws {
        let world = try Builders.threeMembers()
        var alice = try #require(world.members[0].group)
        var generator = world.generator
        let message = try ReceiverCheck.$disabled.withValue(ReceiverCheck.disabled.union([.publicApplicationData])) {
            try alice.uncheckedMessage(text, flaw: nil, as: .publicMessage, using: &generator)
        }
        var bob = try #require(world.members[1].group)
        _ = try bob.process(MLSMessage(tlsBytes: message.tlsSerialized()))
    }

    /// "Application data from a non-member" has no switch: a PrivateMessage's sender is a leaf
    /// index by construction (§6.3.2), so only a PublicMessage can carry another sender, and
    /// `publicApplicationData` refuses that first. Shown here: the external sender's application
    /// data is refused as public, and as a non-member's once that check is off.
    @Test func applicationDataFromANonMemberMeetsThePublicRuleFirst() throws {
        var world = try Builders.threeMembers()
        let service = try Self.serviceKey()
        try Self.registerExternalSender(service.publicKey, &world)
        var bob = try #require(world.members[1].group)
        let framed = FramedContent(
            groupID: bob.groupID, epoch: bob.epoch, sender: .external(senderIndex: 0), authenticatedData: [], content: Self.text)
        let signed = try AuthenticatedContent.sign(
            framed, wireFormat: WireFormat.publicMessage, context: bob.context, suite: GroupTests.suite,
            signaturePrivateKey: service.privateKey)
        let message = MLSMessage(body: .publicMessage(PublicMessage(content: signed.content, auth: signed.auth, membershipTag: nil)))
        var unchecked = bob
        #expect(throws: MLSError(.publicApplicationData, "")) { try bob.process(message) }
        #expect(throws: MLSError(.invalidSender, "")) {
            try ReceiverCheck.$disabled.withValue([.publicApplicationData]) { try unchecked.process(message) }
        }
    }

    /// The capabilities every member of the test worlds lists (SelfRemove), with `credentials`.
    static func memberCapabilities(credentials: [UInt16]) -> Capabilities {
        Capabilities(proposals: [Proposal.Kind.selfRemove], credentials: credentials)
    }

    /// The rule attacks' twins without their flaws, which the receiver accepts: the builders,
    /// not the flaws, are sound.
    @Test func flawlessRuleTwinsAreAccepted() throws {
        try Self.bobProcessesExternalCommit { _ in [] }
        try Self.carolProcessesSelfRemove(carolCapabilities: Self.memberCapabilities(credentials: [Credential.basicType]))
        try Self.bobProcessesCommit(
            { world in
                try Self.requireSelfRemove(&world)
                let dave = try Self.stranger("dave", &world, capabilities: Self.memberCapabilities(credentials: [Credential.basicType]))
                return [.add(world.members[dave].keyPackage.keyPackage)]
            }, forcePath: false)
        try Self.bobProcessesCommit(
            { world in
                let dave = try Self.stranger("dave", &world, capabilities: Self.memberCapabilities(credentials: [Credential.basicType]))
                return [.add(world.members[dave].keyPackage.keyPackage)]
            }, forcePath: false)
        try Self.bobProcessesCommit { world in
            try Self.requireSelfRemove(&world)
            try world.propose(2, .update(try Self.updateLeaf(of: 2, &world)))
            return []
        }
        try Self.bobProcessesCommit { world in
            [try Self.extensions(world, adding: try Self.requiredCapabilities(proposals: [Proposal.Kind.selfRemove]))]
        }
        try Self.bobProcessesCommit({ _ in [] }, flaw: .pathLeafSupports(0xFF0A))
        try Self.bobProcessesCommit { world in
            [try Self.resignedKeyPackage(&world, leafSource: .keyPackage(Lifetime(notBefore: 0, notAfter: .max))) { _ in }]
        }
        try Self.bobProcessesCommit(
            { world in [try Self.resignedKeyPackage(&world, leafSource: .keyPackage(Lifetime(notBefore: 0, notAfter: 100))) { _ in }] },
            receivedAt: 50)
        try Self.bobProcessesCommit(
            { world in
                try Self.registerExternalSender(try Self.serviceKey().publicKey, &world)
                return [try Self.resignedKeyPackage(&world) { _ in }]
            }, forcePath: false)
    }
}
