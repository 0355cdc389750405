import ConformanceTestSupport
import MLS
import TLSCodec
import Testing

/// RFC 9420 §13.4: an extension list with two extensions of one type is refused wherever a list
/// is read — key package, leaf node, group context, group info and GroupContextExtensions proposal —
/// so that no two members can read different values from the same bytes. Each case starts from a
/// real message of the working group's vectors and repeats one of its extensions.
@Suite struct DuplicateExtensionTests {
    static let repeated = Extension(type: 0xF2EE, data: [1, 2, 3])
    static let conflicting = Extension(type: 0xF2EE, data: [4, 5, 6])

    static func messages() throws -> MessagesVectorTests.Case {
        try #require(try Vectors.decode([MessagesVectorTests.Case].self, from: "mls/messages.json").first)
    }

    static func refusesDuplicate(_ bytes: [UInt8], decode: ([UInt8]) throws -> Void) {
        #expect(throws: TLSCodecError(.invalidValue, "")) { try decode(bytes) }
    }

    @Test func keyPackageAndLeafNodeLists() throws {
        guard case .keyPackage(let original) = try MLSMessage(tlsBytes: try Self.messages().mls_key_package.bytes).body else {
            Issue.record("the vector's key package is not a key package")
            return
        }
        var keyPackage = original
        keyPackage.extensions += [Self.repeated, Self.conflicting]
        Self.refusesDuplicate(try keyPackage.tlsSerialized()) { _ = try KeyPackage(tlsBytes: $0) }
        var leaf = original.leafNode
        leaf.extensions += [Self.repeated, Self.conflicting]
        Self.refusesDuplicate(try leaf.tlsSerialized()) { _ = try LeafNode(tlsBytes: $0) }
        // One of each still reads.
        keyPackage.extensions = original.extensions + [Self.repeated]
        #expect(try KeyPackage(tlsBytes: try keyPackage.tlsSerialized()).extensions.count == original.extensions.count + 1)
    }

    @Test func groupInfoAndGroupContextLists() throws {
        guard case .groupInfo(let original) = try MLSMessage(tlsBytes: try Self.messages().mls_group_info.bytes).body else {
            Issue.record("the vector's group info is not a group info")
            return
        }
        var info = original
        info.extensions += [Self.repeated, Self.conflicting]
        Self.refusesDuplicate(try info.tlsSerialized()) { _ = try GroupInfo(tlsBytes: $0) }
        var context = original.groupContext
        context.extensions += [Self.repeated, Self.conflicting]
        Self.refusesDuplicate(try context.tlsSerialized()) { _ = try GroupContext(tlsBytes: $0) }
    }

    @Test func groupContextExtensionsProposal() throws {
        let proposal = Proposal.groupContextExtensions([Self.repeated, Self.conflicting])
        Self.refusesDuplicate(try proposal.tlsSerialized()) { _ = try Proposal(tlsBytes: $0) }
    }
}
