import ConformanceTestSupport
import TLSCodec
import Testing

@testable import MLS

/// Builders for the negative cases of ReceiverCheckTests that UncheckedBuilderTests has no helper
/// for: each message is valid up to the check under test. Where the honest sender would refuse to
/// build it, the sender skips that check (`senderSkips`); the receiver runs with the switches the
/// test sets.
extension ReceiverCheckTests {
    typealias World = GroupTests.World

    /// bob processes, at `receivedAt` (seconds; nil skips lifetimes), a commit of `proposals`
    /// (by value) that alice builds with `flaw`.
    static func bobProcessesCommit(
        _ proposals: (inout World) throws -> [Proposal], forcePath: Bool = true, flaw: CommitFlaw? = nil,
        senderSkips: Set<ReceiverCheck> = [], receivedAt: UInt64? = nil
    ) throws {
        var world = try Builders.threeMembers()
        let list = try proposals(&world)
        var alice = try #require(world.members[0].group)
        var generator = world.generator
        let created = try ReceiverCheck.$disabled.withValue(ReceiverCheck.disabled.union(senderSkips)) {
            try alice.uncheckedCommit(adding: list, forcePath: forcePath, flaw: flaw, now: nil, using: &generator)
        }
        var bob = try #require(world.members[1].group)
        _ = try bob.process(MLSMessage(tlsBytes: created.commit.tlsSerialized()), now: receivedAt)
    }

    /// A resumption PSK of the current epoch (both alice and bob hold it) with a `nonceLength`-byte nonce.
    static func currentEpochPSK(_ world: World, nonceLength: Int = 32, usage: UInt8 = 1) throws -> Proposal {
        let group = try #require(world.members[0].group)
        return .preSharedKey(
            PreSharedKeyID(
                kind: .resumption(usage: usage, groupID: group.groupID, epoch: group.epoch),
                nonce: [UInt8](repeating: 0x5A, count: nonceLength)))
    }

    /// A new member's KeyPackage with `change` applied and, when `resign`, signed again by its
    /// owner; `leafSource`, when given, becomes its leaf's source, the leaf signed again by its owner.
    static func resignedKeyPackage(
        _ world: inout World, resign: Bool = true, leafSource: LeafNodeSource? = nil, _ change: (inout KeyPackage) -> Void
    ) throws -> Proposal {
        let dave = try world.newMember("dave")
        let key = world.members[dave].keyPackage.signaturePrivateKey
        var keyPackage = world.members[dave].keyPackage.keyPackage
        if let leafSource {
            keyPackage.leafNode.source = leafSource
            try keyPackage.leafNode.sign(suite: GroupTests.suite, privateKey: key, groupID: [], leafIndex: 0)
        }
        change(&keyPackage)
        if resign { try keyPackage.sign(suite: GroupTests.suite, privateKey: key) }
        return .add(keyPackage)
    }

    /// An Update proposal of alice's own leaf (a fresh encryption key, signed by her as an
    /// update-sourced leaf of leaf 0): valid in itself, so only the committer rule can stop it
    /// when alice commits it.
    static func aliceUpdate(_ world: inout World) throws -> Proposal {
        .update(try updateLeaf(of: 0, &world))
    }

    /// Member `i`'s own leaf as an Update would carry it: a fresh encryption key (or `key`), source
    /// update, signed by `i` for its leaf index; `change` alters it after signing.
    /// `beforeSigning` alters it before it is signed (source, capabilities).
    static func updateLeaf(
        of i: Int, _ world: inout World, key: [UInt8]? = nil, beforeSigning: (inout LeafNode) -> Void = { _ in },
        change: (inout LeafNode) -> Void = { _ in }
    ) throws -> LeafNode {
        let group = try #require(world.members[i].group)
        var leaf = try #require(group.tree.leaf(group.leafIndex))
        let fresh = try GroupTests.suite.deriveKeyPair(secret: GroupTests.suite.randomBytes(32, using: &world.generator)).publicKey
        leaf.encryptionKey = key ?? fresh
        leaf.source = .update
        beforeSigning(&leaf)
        try leaf.sign(suite: GroupTests.suite, privateKey: group.signaturePrivateKey, groupID: group.groupID, leafIndex: group.leafIndex)
        change(&leaf)
        return leaf
    }

    /// The group's current extensions as a GroupContextExtensions proposal (a no-op change).
    static func sameExtensions(_ world: World) throws -> Proposal {
        .groupContextExtensions(try #require(world.members[0].group).context.extensions)
    }

    /// alice's honest application message to bob, its MLSMessage version set to `version`.
    static func bobReceivesVersion(_ version: UInt16) throws {
        var world = try Builders.threeMembers()
        var alice = try #require(world.members[0].group)
        var message = try alice.uncheckedMessage(text, flaw: nil, as: .privateMessage, using: &world.generator)
        message.version = version
        var bob = try #require(world.members[1].group)
        _ = try bob.process(MLSMessage(tlsBytes: message.tlsSerialized()))
    }

    /// A leaf unmerged at two parents: alice (0) adds four members, removes leaf 3 (her path
    /// re-keys nodes 1, 3 and 7; node 5 stays blank), then adds frank without a path, so frank's
    /// leaf 3 is unmerged at nodes 3 and 7. The Welcome's tree drops it from node 3 only.
    static func frankJoinsWithUnmergedLeafDropped(flaw: CommitFlaw?) throws {
        var world = World()
        for name in ["alice", "bob", "carol", "dave", "erin"] { _ = try world.newMember(name) }
        let frank = try world.newMember("frank")
        try world.create(0, groupID: Array("unmerged".utf8))
        let adds = (1...4).map { Proposal.add(world.members[$0].keyPackage.keyPackage) }
        try world.commit(0, adding: adds, joining: [1, 2, 3, 4])
        try world.commit(0, adding: [.remove(leaf: 3)])
        var alice = try #require(world.members[0].group)
        let created = try alice.uncheckedCommit(
            adding: [.add(world.members[frank].keyPackage.keyPackage)], forcePath: false, flaw: flaw, now: nil,
            using: &world.generator)
        let bytes = try MLSMessage(body: .welcome(try #require(created.welcome))).tlsSerialized()
        guard case .welcome(let welcome) = try MLSMessage(tlsBytes: bytes).body else { throw MLSError(.malformed, "") }
        _ = try Group(welcome: welcome, keyPackage: world.members[frank].keyPackage)
    }

    /// alice creates a group of `suite` and welcomes bob's KeyPackage of suite 0x0001 (skipping
    /// her own Add check of its suite); bob joins from the bytes.
    static func bobJoinsGroupOfSuite(_ suite: CipherSuite) throws {
        var world = World(suite: suite)
        let alice = try world.newMember("alice")
        world.suite = GroupTests.suite
        let bob = try world.newMember("bob")
        try world.create(alice, groupID: Array("suites".utf8))
        var group = try #require(world.members[alice].group)
        var generator = world.generator
        let created = try ReceiverCheck.$disabled.withValue(ReceiverCheck.disabled.union([.keyPackageCipherSuite])) {
            try group.uncheckedCommit(
                adding: [.add(world.members[bob].keyPackage.keyPackage)], flaw: nil, now: nil, using: &generator)
        }
        let bytes = try MLSMessage(body: .welcome(try #require(created.welcome))).tlsSerialized()
        guard case .welcome(let welcome) = try MLSMessage(tlsBytes: bytes).body else { throw MLSError(.malformed, "") }
        _ = try Group(welcome: welcome, keyPackage: world.members[bob].keyPackage)
    }

    /// The new attacks' twins without their flaws, which the receiver accepts: the builders, not
    /// the flaws, are sound.
    @Test func flawlessTwinsAreAccepted() throws {
        try Self.bobProcessesCommit { _ in [.remove(leaf: 2)] }
        try Self.bobProcessesCommit { world in [try Self.currentEpochPSK(world)] }
        try Self.bobProcessesCommit { world in [try Self.resignedKeyPackage(&world) { _ in }] }
        try Self.bobProcessesCommit { world in [try Self.resignedKeyPackage(&world, resign: false) { _ in }] }
        try Self.bobProcessesCommit { world in [try Self.sameExtensions(world)] }
        try Self.bobProcessesCommit({ world in
            try world.proposeUpdate(2)
            return []
        })
        try Self.bobProcessesCommit({ world in [try Self.resignedKeyPackage(&world) { _ in }] }, forcePath: false)
        try Self.bobProcessesCommit { _ in
            [.reInit(groupID: Array("next".utf8), version: ProtocolVersion.mls10, cipherSuite: 1, extensions: [])]
        }
        try Self.bobProcessesCommit { world in
            try world.propose(2, .update(try Self.updateLeaf(of: 2, &world)))
            return []
        }
        try Self.bobReceivesVersion(ProtocolVersion.mls10)
        try Self.frankJoinsWithUnmergedLeafDropped(flaw: nil)
        try Self.bobJoinsGroupOfSuite(GroupTests.suite)
    }
}
