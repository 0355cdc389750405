import ConformanceTestSupport
import MLS
import TLSCodec
import Testing

/// Groups made entirely by our code: every member must agree on the epoch authenticator at every
/// epoch, and application messages must flow both ways. All messages cross the wire as bytes.
@Suite struct GroupTests {
    static let suite = CipherSuite.x25519AES128GCMSHA256Ed25519

    /// A simulated member: its key package until it joins, then its group state.
    struct Member {
        let name: String
        var keyPackage: KeyPackagePrivate
        var group: Group?
    }

    /// A set of members who exchange messages as bytes.
    struct World {
        var suite = GroupTests.suite
        var members: [Member] = []
        var generator = TestGenerator(seed: 0x6d6c_7331)

        mutating func newMember(_ name: String) throws -> Int {
            let keys = try suite.generateSignatureKeyPair(using: &generator)
            let kp = try KeyPackagePrivate.generate(
                suite: suite, credential: .basic(identity: Array(name.utf8)), signatureKeyPair: keys,
                capabilities: Capabilities(proposals: [Proposal.Kind.selfRemove]),
                lifetime: Lifetime(notBefore: 0, notAfter: .max), using: &generator)
            members.append(Member(name: name, keyPackage: kp, group: nil))
            return members.count - 1
        }

        /// A world where alice (0) created a group and added bob (1) with the first commit.
        static func alicePlusBob(groupID: [UInt8], suite: CipherSuite = GroupTests.suite) throws -> World {
            var world = World(suite: suite)
            let alice = try world.newMember("alice")
            let bob = try world.newMember("bob")
            try world.create(alice, groupID: groupID)
            try world.commit(alice, adding: [.add(world.members[bob].keyPackage.keyPackage)], joining: [bob])
            return world
        }

        /// Member `i` creates a group alone.
        mutating func create(_ i: Int, groupID: [UInt8]) throws {
            var rng = generator
            members[i].group = try Group(creating: groupID, creator: members[i].keyPackage, using: &rng)
            generator = rng
        }

        var active: [Int] { members.indices.filter { members[$0].group?.isActive == true } }

        /// Serializes `message` and has every active member but `sender` process it.
        mutating func broadcast(_ message: MLSMessage, from sender: Int) throws -> [Int: ReceivedMessage] {
            let bytes = try message.tlsSerialized()
            var results: [Int: ReceivedMessage] = [:]
            for i in active where i != sender {
                results[i] = try members[i].group?.process(MLSMessage(tlsBytes: bytes))
            }
            return results
        }

        /// Commits at `committer`, delivers the commit and any Welcome, and adopts the new epoch.
        mutating func commit(
            _ committer: Int, adding proposals: [Proposal] = [], joining: [Int] = [],
            as wireFormat: HandshakeWireFormat = .publicMessage
        ) throws {
            guard var group = members[committer].group else { throw MLSError(.notAMember, "") }
            var rng = generator
            let created = try group.commit(adding: proposals, as: wireFormat, using: &rng)
            generator = rng
            members[committer].group = group
            _ = try broadcast(created.commit, from: committer)
            members[committer].group = created.next
            if let welcome = created.welcome {
                let bytes = try MLSMessage(body: .welcome(welcome)).tlsSerialized()
                for j in joining {
                    guard case .welcome(let w) = try MLSMessage(tlsBytes: bytes).body else { continue }
                    members[j].group = try Group(welcome: w, keyPackage: members[j].keyPackage)
                }
            }
        }

        /// Has member `i` make a handshake message and delivers it to the others.
        mutating func send(_ i: Int, _ make: (inout Group, inout TestGenerator) throws -> MLSMessage) throws {
            guard var group = members[i].group else { throw MLSError(.notAMember, "") }
            var rng = generator
            let message = try make(&group, &rng)
            (members[i].group, generator) = (group, rng)
            _ = try broadcast(message, from: i)
        }

        mutating func propose(_ i: Int, _ proposal: Proposal, as wireFormat: HandshakeWireFormat = .publicMessage) throws {
            try send(i) { group, rng in try group.propose(proposal, as: wireFormat, using: &rng) }
        }

        mutating func proposeUpdate(_ i: Int, as wireFormat: HandshakeWireFormat = .publicMessage) throws {
            try send(i) { group, rng in try group.proposeUpdate(as: wireFormat, using: &rng) }
        }

        /// Application data from member `i`, not delivered.
        mutating func protect(_ i: Int, _ data: [UInt8]) throws -> MLSMessage {
            var rng = generator
            defer { generator = rng }
            guard let message = try members[i].group?.protect(application: data, using: &rng) else {
                throw MLSError(.notAMember, "")
            }
            return message
        }

        /// Every active member is at the same epoch with the same authenticator and exporter output.
        func agree() -> Bool {
            let groups = active.compactMap { members[$0].group }
            guard let first = groups.first else { return false }
            return groups.allSatisfy {
                $0.epoch == first.epoch && $0.epochAuthenticator == first.epochAuthenticator
                    && $0.export(label: "test", context: [1], length: 16) == first.export(label: "test", context: [1], length: 16)
                    && $0.tree == first.tree
            }
        }

        /// Every active member sends one application message that all others read.
        mutating func chatter() throws -> Bool {
            for i in active {
                let text = Array("hello from \(members[i].name) at \(members[i].group?.epoch ?? 0)".utf8)
                var rng = generator
                guard let message = try members[i].group?.protect(application: text, paddingLength: 5, using: &rng)
                else { return false }
                generator = rng
                let leaf = members[i].group?.leafIndex ?? .max
                for (_, received) in try broadcast(message, from: i) where received != .application(text, sender: leaf) {
                    return false
                }
            }
            return true
        }
    }

    @Test(arguments: [UInt16(1), 3])
    func twoMemberGroup(suiteID: UInt16) throws {
        var world = try World.alicePlusBob(groupID: Array("two".utf8), suite: CipherSuite(id: suiteID))
        let (alice, bob) = (0, 1)
        #expect(world.active == [alice, bob] && world.agree())
        #expect(try world.chatter())

        try world.commit(bob, as: .privateMessage)  // Bob's self-update.
        #expect(world.agree() && world.members[bob].group?.epoch == 2)
        #expect(try world.chatter())

        try world.commit(alice)  // Alice's self-update.
        #expect(world.agree())
        #expect(try world.chatter())

        try world.commit(alice, adding: [.remove(leaf: 1)])
        #expect(world.active == [alice])
        #expect(world.members[bob].group?.isActive == false)
        #expect(world.members[alice].group?.tree.leafCount == 1)
    }

    @Test func tenMemberGroup() throws {
        var world = World()
        let ids = try (0..<10).map { try world.newMember("member\($0)") }
        try world.create(ids[0], groupID: Array("ten".utf8))
        var epochs = 0
        func step(_ body: () throws -> Void) throws {
            try body()
            epochs += 1
            #expect(world.agree(), "members disagree after step \(epochs)")
            #expect(try world.chatter(), "application messages failed after step \(epochs)")
        }

        // Four members in one commit, then the rest one at a time by different committers,
        // the last two added by proposals sent by one member and committed by another.
        try step {
            try world.commit(
                ids[0], adding: ids[1...4].map { .add(world.members[$0].keyPackage.keyPackage) }, joining: Array(ids[1...4]))
        }
        for (committer, joiner) in [(1, 5), (2, 6), (3, 7)] {
            try step {
                try world.commit(
                    ids[committer], adding: [.add(world.members[ids[joiner]].keyPackage.keyPackage)], joining: [ids[joiner]],
                    as: .privateMessage)
            }
        }
        try step {
            for joiner in [8, 9] {
                try world.propose(ids[4], .add(world.members[ids[joiner]].keyPackage.keyPackage))
            }
            try world.commit(ids[5], joining: [ids[8], ids[9]])
        }
        #expect(world.active.count == 10)

        // Update proposals from two members, committed together by a third.
        try step {
            try world.proposeUpdate(ids[1])
            try world.proposeUpdate(ids[8], as: .privateMessage)
            try world.commit(ids[2])
        }

        // Self-updates by several members, public and private.
        for updater in [9, 0, 6] {
            try step { try world.commit(ids[updater], as: updater == 6 ? .publicMessage : .privateMessage) }
        }

        // A removal, and a SelfRemove proposal committed by someone else.
        try step { try world.commit(ids[2], adding: [.remove(leaf: world.members[ids[7]].group!.leafIndex)]) }
        try step {
            try world.propose(ids[3], .selfRemove, as: .privateMessage)
            try world.commit(ids[8])
        }
        #expect(world.active.count == 8)
        #expect(!world.active.contains(ids[3]) && !world.active.contains(ids[7]))
        #expect(epochs == 11)
    }

    @Test func messagesFromOtherEpochsAndTamperingAreRejected() throws {
        var world = try World.alicePlusBob(groupID: Array("g".utf8))
        let (alice, bob) = (0, 1)
        let old = try world.protect(alice, [1])
        try world.commit(alice)
        #expect(throws: MLSError(.wrongEpoch, "")) { try world.members[bob].group!.process(old) }

        var message = try world.protect(alice, [2])
        guard case .privateMessage(var inner) = message.body else { return }
        inner.ciphertext[0] ^= 0x80
        message.body = .privateMessage(inner)
        #expect(throws: MLSError(.decryptionFailed, "")) { try world.members[bob].group!.process(message) }

        // A Welcome is only for the key packages it names.
        let carol = try world.newMember("carol")
        let dave = try world.newMember("dave")
        var rng = world.generator
        let created = try world.members[alice].group!.commit(
            adding: [.add(world.members[carol].keyPackage.keyPackage)], using: &rng)
        #expect(throws: MLSError(.notInvited, "")) {
            try Group(welcome: created.welcome!, keyPackage: world.members[dave].keyPackage)
        }
    }

    @Test func keyPackageLifetimeAndLastResort() throws {
        var generator = TestGenerator(seed: 11)
        let keys = try Self.suite.generateSignatureKeyPair(using: &generator)
        let creator = try KeyPackagePrivate.generate(
            suite: Self.suite, credential: .basic(identity: [1]), signatureKeyPair: keys,
            lifetime: Lifetime(notBefore: 0, notAfter: .max), using: &generator)
        let joiner = try KeyPackagePrivate.generate(
            suite: Self.suite, credential: .basic(identity: [2]),
            signatureKeyPair: Self.suite.generateSignatureKeyPair(using: &generator),
            lifetime: Lifetime(notBefore: 1_000, notAfter: 2_000),
            extensions: [Extension(type: ExtensionType.lastResort, data: [])], using: &generator)
        #expect(joiner.keyPackage.isLastResort && !creator.keyPackage.isLastResort)
        var group = try Group(creating: [9], creator: creator, using: &generator)
        #expect(throws: MLSError(.expired, "")) {
            try group.commit(adding: [.add(joiner.keyPackage)], now: 2_001, using: &generator)
        }
        #expect(try group.commit(adding: [.add(joiner.keyPackage)], now: 1_500, using: &generator).welcome != nil)
        var forged = joiner.keyPackage
        forged.initKey[0] ^= 1
        #expect(throws: MLSError(.badSignature, "")) { try forged.validate(suite: Self.suite, now: nil) }
    }

    /// Mutated commits from a real group must be rejected with an error, never crash, and never
    /// leave the receiver in a different epoch.
    @Test func mutatedCommitsNeverCrash() throws {
        var world = try World.alicePlusBob(groupID: [7])
        let (alice, bob) = (0, 1)
        let carol = try world.newMember("carol")
        var rng = world.generator
        for wireFormat in [HandshakeWireFormat.publicMessage, .privateMessage] {
            var committer = world.members[alice].group!
            let created = try committer.commit(
                adding: [.add(world.members[carol].keyPackage.keyPackage)], as: wireFormat, using: &rng)
            let bytes = try created.commit.tlsSerialized()
            let receiver = world.members[bob].group!
            for mutant in Mutations.mutants(of: bytes, count: 300, using: &rng) where mutant != bytes {
                var copy = receiver
                guard let message = try? MLSMessage(tlsBytes: mutant) else { continue }
                if (try? copy.process(message)) != nil {
                    // Only a mutation the signature does not cover may pass (e.g. none at all).
                    #expect(copy.epochAuthenticator == created.next.epochAuthenticator)
                }
            }
            var copy = receiver
            _ = try copy.process(MLSMessage(tlsBytes: bytes))
            #expect(copy.epochAuthenticator == created.next.epochAuthenticator)
        }
    }

    @Test func invalidProposalListsAreRefused() throws {
        let world = try World.alicePlusBob(groupID: [3])
        var rng = world.generator
        var alice = world.members[0].group!
        let bobKeyPackage = world.members[1].keyPackage.keyPackage
        #expect(throws: MLSError(.invalidProposal, "")) { try alice.commit(adding: [.add(bobKeyPackage)], using: &rng) }
        #expect(throws: MLSError(.invalidProposal, "")) {
            try alice.commit(adding: [.remove(leaf: 1), .remove(leaf: 1)], using: &rng)
        }
        #expect(throws: MLSError(.invalidProposal, "")) { try alice.commit(adding: [.remove(leaf: 0)], using: &rng) }
        #expect(throws: MLSError(.invalidProposal, "")) {
            try alice.commit(adding: [.externalInit(kemOutput: [1])], using: &rng)
        }
        // Carol's key package does not list SelfRemove; once she is in, nobody may commit one.
        let plainCarol = try KeyPackagePrivate.generate(
            suite: Self.suite, credential: .basic(identity: [3]),
            signatureKeyPair: Self.suite.generateSignatureKeyPair(using: &rng),
            lifetime: Lifetime(notBefore: 0, notAfter: .max), using: &rng)
        let added = try alice.commit(adding: [.add(plainCarol.keyPackage)], using: &rng)
        alice = added.next
        _ = try alice.propose(.selfRemove, using: &rng)
        #expect(throws: MLSError(.missingCapability, "")) { try alice.commit(using: &rng) }
    }

    @Test func pskProposalsAndOutOfOrderDelivery() throws {
        var world = try World.alicePlusBob(groupID: [6])
        let pskID = Array("shared psk".utf8)
        for i in [0, 1] { world.members[i].group?.externalPSKs[pskID] = Array(repeating: 0x42, count: 32) }
        try world.commit(
            0,
            adding: [
                .preSharedKey(PreSharedKeyID(kind: .external(id: pskID), nonce: Array(repeating: 1, count: 32))),
                .preSharedKey(
                    PreSharedKeyID(kind: .resumption(usage: 1, groupID: [6], epoch: 1), nonce: Array(repeating: 2, count: 32))),
            ])
        #expect(world.agree() && world.members[0].group?.epoch == 2)

        // Application messages read in the order 3, 1, 2: skipped keys are kept for late arrivals.
        let sent = try (1...3).map { try world.protect(0, [UInt8($0)]) }
        for index in [2, 0, 1] {
            #expect(try world.members[1].group?.process(sent[index]) == .application([UInt8(index + 1)], sender: 0))
        }
        #expect(throws: MLSError(.keyConsumed, "")) { try world.members[1].group?.process(sent[0]) }

        // A PSK the receiver does not hold stops the commit.
        world.members[1].group?.externalPSKs = [:]
        #expect(throws: MLSError(.missingPSK, "")) {
            try world.commit(
                0, adding: [.preSharedKey(PreSharedKeyID(kind: .external(id: pskID), nonce: Array(repeating: 3, count: 32)))])
        }
    }

    @Test func greaseValuesAreIgnored() throws {
        var world = try World.alicePlusBob(groupID: [8])
        var rng = world.generator
        let grease = try KeyPackagePrivate.generate(
            suite: Self.suite, credential: .basic(identity: Array("grease".utf8)),
            signatureKeyPair: Self.suite.generateSignatureKeyPair(using: &rng),
            capabilities: Capabilities(
                versions: [1, 0x0a0a], cipherSuites: [1, 0x1a1a], extensions: [0x2a2a], proposals: [0x3a3a],
                credentials: [1, 0x4a4a]),
            lifetime: Lifetime(notBefore: 0, notAfter: .max), leafExtensions: [Extension(type: 0x2a2a, data: [7])],
            extensions: [Extension(type: 0x5a5a, data: [])], using: &rng)
        world.generator = rng
        world.members.append(Member(name: "grease", keyPackage: grease, group: nil))
        try world.commit(0, adding: [.add(grease.keyPackage)], joining: [2])
        #expect(world.active.count == 3 && world.agree())
    }

    @Test func reInitEndsTheGroup() throws {
        var world = try World.alicePlusBob(groupID: [4])
        try world.commit(0, adding: [.reInit(groupID: [5], version: 1, cipherSuite: 1, extensions: [])])
        #expect(world.agree())
        #expect(world.members[1].group?.reInit != nil)
        #expect(throws: MLSError(.notAMember, "")) { try world.protect(1, [1]) }
        #expect(throws: MLSError(.notAMember, "")) { try world.protect(0, [1]) }
    }

    @Test func requiredCapabilitiesAreEnforced() throws {
        var generator = TestGenerator(seed: 5)
        let keys = try Self.suite.generateSignatureKeyPair(using: &generator)
        let plain = try KeyPackagePrivate.generate(
            suite: Self.suite, credential: .basic(identity: [1]), signatureKeyPair: keys,
            lifetime: Lifetime(notBefore: 0, notAfter: 1), using: &generator)
        let required = try RequiredCapabilities(extensionTypes: [0xf2f2], proposalTypes: [], credentialTypes: [1])
            .tlsSerialized()
        #expect(throws: MLSError(.missingCapability, "")) {
            try Group(
                creating: [1], creator: plain, extensions: [Extension(type: ExtensionType.requiredCapabilities, data: required)],
                using: &generator)
        }
    }
}
