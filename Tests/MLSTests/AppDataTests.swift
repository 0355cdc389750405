// The extensions-draft pieces made and consumed by our own MLS: the app_data_dictionary codec,
// AppDataUpdate by value and by reference applied in the commit's order, the per-commit rules,
// required capabilities, and the caller's judge. Captured MDK bytes are in CapturedCurrentProfileTests.
import ConformanceTestSupport
import MLS
import TLSCodec
import Testing

@Suite struct AppDataTests {
    static let suite = CipherSuite.x25519AES128GCMSHA256Ed25519
    static let groupID: [UInt8] = Array("app-data-group".utf8)

    static func member(
        _ name: String, proposals: [UInt16], components supported: [UInt16] = [0x0001, 0x8001], using rng: inout TestGenerator
    ) throws -> KeyPackagePrivate {
        let keys = try suite.generateSignatureKeyPair(using: &rng)
        let components = try AppDataDictionary(entries: [
            ComponentData(componentID: ComponentID.appComponents, data: try AppComponents(componentIDs: supported).tlsSerialized())
        ])
        return try KeyPackagePrivate.generate(
            suite: suite, credential: .basic(identity: Array(name.utf8)), signatureKeyPair: keys,
            capabilities: Capabilities(extensions: [ExtensionType.appDataDictionary], proposals: proposals),
            lifetime: Lifetime(notBefore: 0, notAfter: .max),
            leafExtensions: [Extension(type: ExtensionType.appDataDictionary, data: try components.tlsSerialized())],
            using: &rng)
    }

    /// The group context extensions of a current-profile group: the draft's types required, and
    /// a dictionary holding component 0x8001.
    static func contextExtensions() throws -> [Extension] {
        let required = RequiredCapabilities(
            extensionTypes: [ExtensionType.appDataDictionary], proposalTypes: [Proposal.Kind.appDataUpdate], credentialTypes: [])
        let dictionary = try AppDataDictionary(entries: [ComponentData(componentID: 0x8001, data: [0x61])])
        return [
            Extension(type: ExtensionType.requiredCapabilities, data: try required.tlsSerialized()),
            Extension(type: ExtensionType.appDataDictionary, data: try dictionary.tlsSerialized()),
        ]
    }

    /// Alice's group with Bob added; both at epoch 1.
    static func aliceAndBob(_ rng: inout TestGenerator) throws -> (alice: Group, bob: Group) {
        let alice = try member("alice", proposals: [Proposal.Kind.appDataUpdate], using: &rng)
        let bob = try member("bob", proposals: [Proposal.Kind.appDataUpdate, Proposal.Kind.selfRemove], using: &rng)
        var group = try Group(creating: groupID, creator: alice, extensions: contextExtensions(), using: &rng)
        let created = try group.commit(adding: [.add(bob.keyPackage)], using: &rng)
        let joined = try Group(welcome: try #require(created.welcome), keyPackage: bob)
        return (created.next, joined)
    }

    static func deliver(_ message: MLSMessage, to group: inout Group) throws {
        _ = try group.process(try MLSMessage(tlsBytes: try message.tlsSerialized()))
    }

    @Test func dictionaryCodec() throws {
        var dictionary = AppDataDictionary()
        dictionary.set(0x8004, to: [4])
        dictionary.set(0x0001, to: [1])
        dictionary.set(0x8001, to: [2])
        #expect(dictionary.entries.map(\.componentID) == [0x0001, 0x8001, 0x8004])
        dictionary.set(0x8001, to: [3])
        dictionary.set(0x0001, to: nil)
        dictionary.set(0x7777, to: nil)
        #expect(dictionary.entries == [ComponentData(componentID: 0x8001, data: [3]), ComponentData(componentID: 0x8004, data: [4])])
        let bytes = try dictionary.tlsSerialized()
        #expect(try AppDataDictionary(tlsBytes: bytes) == dictionary)
        // Out of order, and repeated: refused, both by the codec and by the initializer.
        var writer = TLSWriter()
        writer.writeVector([ComponentData(componentID: 0x8004, data: []), ComponentData(componentID: 0x8001, data: [])])
        #expect(throws: TLSCodecError.self) { try AppDataDictionary(tlsBytes: writer.bytes) }
        var repeated = TLSWriter()
        repeated.writeVector([ComponentData(componentID: 0x8001, data: []), ComponentData(componentID: 0x8001, data: [1])])
        #expect(throws: TLSCodecError.self) { try AppDataDictionary(tlsBytes: repeated.bytes) }
        #expect(throws: MLSError(.malformed, "")) {
            try AppDataDictionary(entries: [ComponentData(componentID: 2, data: []), ComponentData(componentID: 1, data: [])])
        }
        // AppDataUpdate: both operations round-trip; an unknown operation is refused.
        let updates = [
            AppDataUpdate(componentID: 0x8001, operation: .update([1, 2])), AppDataUpdate(componentID: 0x8003, operation: .remove),
        ]
        for update in updates {
            let proposal = Proposal.appDataUpdate(update)
            #expect(try Proposal(tlsBytes: try proposal.tlsSerialized()) == proposal)
        }
        #expect(throws: TLSCodecError.self) { try Proposal(tlsBytes: [0x00, 0x08, 0x80, 0x01, 0x03]) }
    }

    /// Updates by value apply in order: the last update of a component wins, a new component is
    /// inserted in id order, and the receiver reaches the same epoch (same authenticator).
    @Test func updatesByValueInOrder() throws {
        var rng = TestGenerator(seed: 0x6170_7064)
        var (alice, bob) = try Self.aliceAndBob(&rng)
        let proposals: [Proposal] = [
            .appDataUpdate(AppDataUpdate(componentID: 0x8001, operation: .update([0x62]))),
            .appDataUpdate(AppDataUpdate(componentID: 0x8002, operation: .update([0x78]))),
            .appDataUpdate(AppDataUpdate(componentID: 0x8001, operation: .update([0x63]))),
            .appDataUpdate(AppDataUpdate(componentID: 0x8009, operation: .remove)),
        ]
        let created = try alice.commit(adding: proposals, using: &rng)
        try Self.deliver(created.commit, to: &bob)
        alice = created.next
        #expect(bob.epochAuthenticator == alice.epochAuthenticator)
        #expect(bob.context == alice.context)
        let dictionary = try #require(try bob.context.extensions.appDataDictionary())
        #expect(dictionary.entries == [ComponentData(componentID: 0x8001, data: [0x63]), ComponentData(componentID: 0x8002, data: [0x78])])
        // The other extensions keep their place.
        #expect(bob.context.extensions.map(\.type) == [ExtensionType.requiredCapabilities, ExtensionType.appDataDictionary])

        // A component removed then: gone at the next epoch.
        let removal = try alice.commit(adding: [.appDataUpdate(AppDataUpdate(componentID: 0x8002, operation: .remove))], using: &rng)
        try Self.deliver(removal.commit, to: &bob)
        #expect(try bob.context.extensions.appDataDictionary()?[0x8002] == nil)
        #expect(bob.epochAuthenticator == removal.next.epochAuthenticator)
    }

    /// Bob's proposal by reference, committed by Alice: the judge sees Bob as its sender and the
    /// reference; Bob reaches the same epoch.
    @Test func updateByReference() throws {
        var rng = TestGenerator(seed: 0x6279_7265)
        var (alice, bob) = try Self.aliceAndBob(&rng)
        let proposal = try bob.propose(.appDataUpdate(AppDataUpdate(componentID: 0x8001, operation: .update([0x7a]))), using: &rng)
        try Self.deliver(proposal, to: &alice)
        var seen: CommitCandidate?
        let created = try alice.commit(
            judge: { change throws(MLSError) in
                if case .commit(let candidate) = change { seen = candidate }
            }, using: &rng)
        let candidate = try #require(seen)
        #expect(candidate.isOwn)
        #expect(candidate.proposals.count == 1)
        #expect(candidate.proposals.first?.sender == .member(leafIndex: 1))
        #expect(candidate.proposals.first?.reference != nil)
        #expect(try candidate.context?.extensions.appDataDictionary()?[0x8001] == [0x7a])
        try Self.deliver(created.commit, to: &bob)
        #expect(bob.epochAuthenticator == created.next.epochAuthenticator)
        #expect(try bob.context.extensions.appDataDictionary()?[0x8001] == [0x7a])
    }

    /// One commit may not remove a component twice, nor remove and update it.
    @Test func removeRules() throws {
        var rng = TestGenerator(seed: 0x7265_6d76)
        var (alice, _) = try Self.aliceAndBob(&rng)
        let remove = Proposal.appDataUpdate(AppDataUpdate(componentID: 0x8001, operation: .remove))
        let update = Proposal.appDataUpdate(AppDataUpdate(componentID: 0x8001, operation: .update([1])))
        for proposals in [[remove, remove], [update, remove], [remove, update]] {
            #expect(throws: MLSError(.invalidProposal, "")) { _ = try alice.commit(adding: proposals, using: &rng) }
        }
        // Twin: a single remove, or removes of different components, are fine.
        _ = try alice.commit(
            adding: [remove, .appDataUpdate(AppDataUpdate(componentID: 0x8002, operation: .remove))], using: &rng)
    }

    /// required_capabilities: a key package that does not list app_data_update cannot be added,
    /// and a receiver refuses an AppDataUpdate that some member does not support.
    @Test func requiredCapabilities() throws {
        var rng = TestGenerator(seed: 0x6361_7073)
        var (alice, _) = try Self.aliceAndBob(&rng)
        let carol = try Self.member("carol", proposals: [], using: &rng)
        #expect(throws: MLSError(.missingCapability, "")) { _ = try alice.commit(adding: [.add(carol.keyPackage)], using: &rng) }
        let dave = try Self.member("dave", proposals: [Proposal.Kind.appDataUpdate], using: &rng)
        _ = try alice.commit(adding: [.add(dave.keyPackage)], using: &rng)
    }

    /// The judge's refusal of our own commit stops it before anything is sent.
    @Test func judgeRefusesOwnCommit() throws {
        var rng = TestGenerator(seed: 0x6a75_6467)
        var (alice, _) = try Self.aliceAndBob(&rng)
        // Marmot-like rule, in the caller: component 0x8001 must stay in the group.
        func requireProfile(_ change: GroupChange) throws(MLSError) {
            if case .commit(let candidate) = change, try candidate.context?.extensions.appDataDictionary()?[0x8001] == nil {
                throw MLSError(.refusedByCaller, "component 0x8001 is required")
            }
        }
        let removal = Proposal.appDataUpdate(AppDataUpdate(componentID: 0x8001, operation: .remove))
        #expect(throws: MLSError(.refusedByCaller, "")) {
            _ = try alice.commit(adding: [removal], judge: requireProfile, using: &rng)
        }
        // Twin: the same rule lets an update through, and without the judge the removal goes.
        let update = Proposal.appDataUpdate(AppDataUpdate(componentID: 0x8001, operation: .update([9])))
        _ = try alice.commit(adding: [update], judge: requireProfile, using: &rng)
        _ = try alice.commit(adding: [removal], using: &rng)
    }

    /// The draft's component negotiation: with the GroupContext's app_components naming 0x8001
    /// as required, a key package whose leaf does not list it cannot be added, and a commit that
    /// requires a component a member lacks is refused.
    @Test func requiredComponents() throws {
        var rng = TestGenerator(seed: 0x636f_6d70)
        var (alice, bob) = try Self.aliceAndBob(&rng)
        let requireProfile = Proposal.appDataUpdate(
            AppDataUpdate(
                componentID: ComponentID.appComponents, operation: .update(try AppComponents(componentIDs: [0x8001]).tlsSerialized())))
        let created = try alice.commit(adding: [requireProfile], using: &rng)
        try Self.deliver(created.commit, to: &bob)
        alice = created.next
        #expect(try bob.context.extensions.appDataDictionary()?.appComponents() == [0x8001])

        let carol = try Self.member("carol", proposals: [Proposal.Kind.appDataUpdate], components: [0x0001], using: &rng)
        #expect(throws: MLSError(.missingCapability, "")) { _ = try alice.commit(adding: [.add(carol.keyPackage)], using: &rng) }
        let dave = try Self.member("dave", proposals: [Proposal.Kind.appDataUpdate], using: &rng)
        _ = try alice.commit(adding: [.add(dave.keyPackage)], using: &rng)

        let requireMore = Proposal.appDataUpdate(
            AppDataUpdate(
                componentID: ComponentID.appComponents,
                operation: .update(try AppComponents(componentIDs: [0x8001, 0x8002]).tlsSerialized())))
        #expect(throws: MLSError(.missingCapability, "")) { _ = try alice.commit(adding: [requireMore], using: &rng) }
        // Twin: dropping the requirement binds no one.
        let requireNone = Proposal.appDataUpdate(AppDataUpdate(componentID: ComponentID.appComponents, operation: .remove))
        _ = try alice.commit(adding: [requireNone], using: &rng)
    }
}
