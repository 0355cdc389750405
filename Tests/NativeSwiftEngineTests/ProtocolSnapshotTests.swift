import ConformanceTestSupport
import Crypto
import EngineInterface
import EngineTestSupport
import HexEncoding
import MLS
import Marmot
import Nostr
import Testing

@testable import NativeSwiftEngine

/// Our engine's canonical protocol snapshot (foundation/conformance.md) on real groups.
@Suite struct ProtocolSnapshotTests {
    /// RFC 9420 §8 ExpandWithLabel over SHA-256, written out here rather than taken from our MLS:
    /// KDFLabel = uint16 length || opaque label<V> ("MLS 1.0 " + label) || opaque context<V>.
    static func expandWithLabel(_ secret: [UInt8], _ label: String, _ context: [UInt8], _ length: Int) -> [UInt8] {
        let fullLabel = Array("MLS 1.0 \(label)".utf8)
        // Both vectors are shorter than 64 bytes here: a one-byte variable-length size.
        precondition(fullLabel.count < 64 && context.count < 64)
        let info = [UInt8(length >> 8), UInt8(length & 0xFF)] + [UInt8(fullLabel.count)] + fullLabel + [UInt8(context.count)] + context
        let key = HKDF<SHA256>.expand(pseudoRandomKey: SymmetricKey(data: secret), info: info, outputByteCount: length)
        return key.withUnsafeBytes { Array($0) }
    }

    /// The commitment of foundation/conformance.md from the epoch's exporter_secret:
    /// MLS-Exporter(label, context, 32) = ExpandWithLabel(DeriveSecret(exporter_secret, label), "exported", Hash(context), 32),
    /// then SHA256("marmot-convergence-conformance-v1" || 0x00 || that).
    static func independentCommitment(exporterSecret: [UInt8]) -> String {
        let derived = expandWithLabel(exporterSecret, "marmot", [], 32)
        let contextHash = Array(SHA256.hash(data: Array("convergence-conformance-v1".utf8)))
        let secret = expandWithLabel(derived, "exported", contextHash, 32)
        let domain = Array("marmot-convergence-conformance-v1".utf8)
        #expect(domain.count == 33, "the domain string is exactly 33 ASCII bytes")
        return Array(SHA256.hash(data: domain + [0x00] + secret)).hexString
    }

    @Test func theExporterCommitmentMatchesAnIndependentComputationOnARealGroup() async throws {
        var bench = MemberBench(seed: 0x5AB_0001)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let group = try await bench.createGroup(by: alice, inviting: [bob], name: "Snap", admins: [alice])
        let engine = try #require(alice.engine as? NativeSwiftEngine)
        let secret = try await engine.record(group).mls.secrets.exporterSecret
        let expected = Self.independentCommitment(exporterSecret: secret)
        let snapshot = try await alice.engine.protocolSnapshot(of: group)
        #expect(snapshot.exporterCommitment == .value(expected))
        #expect(try await bob.engine.protocolSnapshot(of: group).exporterCommitment == .value(expected))
        // A commit moves it: the commitment is of the epoch, not of the group.
        try await MemberBench.commit(
            try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "Snap2")), by: alice, to: [bob])
        let next = try await alice.engine.protocolSnapshot(of: group)
        let nextSecret = try await engine.record(group).mls.secrets.exporterSecret
        #expect(next.exporterCommitment == .value(Self.independentCommitment(exporterSecret: nextSecret)))
        #expect(next.exporterCommitment != snapshot.exporterCommitment)
    }

    @Test func theSnapshotProjectsTheGroup() async throws {
        var bench = MemberBench(seed: 0x5AB_0002)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let carol = bench.swiftMember("carol")
        let group = try await bench.createGroup(by: alice, inviting: [bob, carol], name: "Snap", admins: [alice])
        let snapshot = try await alice.engine.protocolSnapshot(of: group)
        let engine = try #require(alice.engine as? NativeSwiftEngine)
        let mls = try await engine.record(group).mls
        #expect(snapshot.groupID == .value(group.hex))
        #expect(snapshot.epoch == .value(1))
        #expect(snapshot.groupContextHash == .value(Array(SHA256.hash(data: try mls.context.tlsSerialized())).hexString))
        // Every nonblank leaf, in index order, with its account and signature key.
        let leaves = try #require(snapshot.leaves.value)
        #expect(leaves.map(\.index) == [0, 1, 2])
        #expect(leaves.map(\.identity) == [alice, bob, carol].map(\.pubkey.hex))
        #expect(leaves.map(\.signatureKey) == [0, 1, 2].map { mls.tree.leaf(UInt32($0))?.signatureKey.hexString ?? "" })
        #expect(leaves.allSatisfy { $0.capabilities.extensions.contains(GroupData.extensionType) && $0.capabilities.components == nil })
        // Legacy profile: the 0xF2EE group data stands where the dictionary would be, byte for byte.
        #expect(
            snapshot.dictionary
                == .value([SnapshotDictionaryEntry(component: 0xF2EE, data: mls.context.extensions.data(ofType: 0xF2EE) ?? [])]))
        #expect(snapshot.requiredCapabilities.value?.extensionTypes.contains(GroupData.extensionType) == true)
        #expect(snapshot.lifecycle == .value("active"))
        #expect(snapshot.localGates == .value([]))
        #expect(snapshot.publications == .value([]))
        guard case .unsupported = snapshot.convergence else {
            Issue.record("our engine has no convergence pass to report")
            return
        }
        // Every member agrees on the shared fields.
        for other in [bob, carol] {
            let theirs = try await other.engine.protocolSnapshot(of: group)
            #expect(theirs.groupContextHash == snapshot.groupContextHash && theirs.leaves == snapshot.leaves)
            #expect(theirs.dictionary == snapshot.dictionary && theirs.requiredCapabilities == snapshot.requiredCapabilities)
        }
    }

    /// A staged commit is an unresolved publication until merged; a message shown is an effect.
    @Test func aStagedCommitIsAPublicationAndAMessageAnEffect() async throws {
        var bench = MemberBench(seed: 0x5AB_0003)
        let alice = bench.swiftMember("alice")
        let bob = bench.swiftMember("bob")
        let group = try await bench.createGroup(by: alice, inviting: [bob], name: "Snap", admins: [alice])
        let rename = try await alice.engine.updateGroupData(of: group, GroupDataChanges(name: "Snap2"))
        let staged = try await alice.engine.protocolSnapshot(of: group)
        #expect(
            staged.publications
                == .value([
                    SnapshotPublication(eventID: rename.event.id.hex, pendingEpoch: 2, attemptMayHaveOccurred: true, acknowledged: false)
                ]))
        #expect(staged.epoch == .value(1), "pending state is never canonical before acknowledgement")
        try await MemberBench.commit(rename, by: alice, to: [bob])
        let merged = try await alice.engine.protocolSnapshot(of: group)
        #expect(merged.publications == .value([]))
        #expect(merged.epoch == .value(2))
        let message = try await alice.engine.createMessage(in: group, sender: alice.pubkey, kind: .chatMessage, content: "hi", tags: [])
        guard case .applicationMessage(let received) = try await bob.engine.processMessage(message) else {
            Issue.record("bob cannot read alice's message")
            return
        }
        let bobs = try await bob.engine.protocolSnapshot(of: group)
        #expect(bobs.effects.value?.contains("message:\(received.rumor.id.hex)") == true)
        #expect(bobs.dispositions.value?.contains(SnapshotDisposition(input: message.id.hex, disposition: "processed")) == true)
    }

    @Test func theCurrentProfileGivesItsDictionary() async throws {
        let now = MemberBench.fixedTime
        var generator = TestGenerator(seed: 0x5AB_0004)
        let keypair = Keypair.generate(using: &generator)
        let engine = NativeSwiftEngine(
            generator: TestGenerator(seed: generator.next()), clock: { now }, profile: .current, accountKeys: [keypair])
        let created = try await engine.createGroup(
            GroupCreation(creator: keypair.publicKey, keyPackages: [], name: "Now", relays: MemberBench.relays, admins: [keypair.publicKey])
        )
        let snapshot = try await engine.protocolSnapshot(of: created.group.mlsGroupID)
        let mls = try await engine.record(created.group.mlsGroupID).mls
        let dictionary = try #require(try mls.context.extensions.appDataDictionary())
        #expect(snapshot.dictionary == .value(dictionary.entries.map { SnapshotDictionaryEntry(component: $0.componentID, data: $0.data) }))
        #expect(snapshot.dictionary.value?.contains { $0.component == 0xF2EE } == false)
        let leaf = try #require(snapshot.leaves.value?.first)
        #expect(leaf.identity == keypair.publicKey.hex)
        #expect(leaf.capabilities.components?.contains(0x8009) == true, "the current profile's leaf lists its components")
    }
}
