import MLS
import TLSCodec
import Testing

/// tree-validation.json and tree-operations.json.
@Suite struct TreeVectorTests {
    struct ValidationCase: SuiteCase {
        let cipher_suite: UInt16
        let tree: Hex
        let group_id: Hex
        let resolutions: [[UInt32]]
        let tree_hashes: [Hex]
    }

    @Test func treeValidationVectors() throws {
        try VectorRun.suites("tree-validation.json", ValidationCase.self) { c, suite, checks in
            let tree = try RatchetTree(bytes: c.tree.bytes)
            checks.equal(try tree.wire.tlsSerialized(), c.tree.bytes, "tree round trip")
            checks.equal(c.resolutions.count, tree.nodes.count, "resolutions count")
            checks.equal(c.tree_hashes.count, tree.nodes.count, "tree_hashes count")
            for (i, expected) in c.resolutions.enumerated() {
                checks.equal(tree.resolution(of: UInt32(i)), expected, "resolutions[\(i)]")
            }
            for (i, expected) in c.tree_hashes.enumerated() {
                checks.equal(tree.treeHash(suite: suite, of: UInt32(i)), expected.bytes, "tree_hashes[\(i)]")
            }
            checks.noThrow("parent hashes") { try tree.verifyParentHashes(suite: suite) }
            checks.noThrow("leaf signatures") { try tree.verifyLeafSignatures(suite: suite, groupID: c.group_id.bytes) }
        }
    }

    struct OperationsCase: SuiteCase {
        let cipher_suite: UInt16
        let tree_before: Hex
        let proposal: Hex
        let proposal_sender: UInt32
        let tree_hash_before: Hex
        let tree_after: Hex
        let tree_hash_after: Hex
    }

    @Test func treeOperationsVectors() throws {
        try VectorRun.suites("tree-operations.json", OperationsCase.self) { c, suite, checks in
            var tree = try RatchetTree(bytes: c.tree_before.bytes)
            checks.equal(tree.treeHash(suite: suite), c.tree_hash_before.bytes, "tree_hash_before")
            switch try Proposal(tlsBytes: c.proposal.bytes) {
            case .add(let keyPackage): tree.add(keyPackage.leafNode)
            case .update(let leaf): try tree.update(leaf: c.proposal_sender, with: leaf)
            case .remove(let leaf): try tree.remove(leaf: leaf)
            case let other: Issue.record("unexpected proposal \(other.type)")
            }
            checks.equal(try tree.wire.tlsSerialized(), c.tree_after.bytes, "tree_after")
            checks.equal(tree.treeHash(suite: suite), c.tree_hash_after.bytes, "tree_hash_after")
        }
    }

    @Test func malformedTreesAreRejected() throws {
        let leaf = try RatchetTree(bytes: Array(try TreeVectorTests.firstTree()))
        var wire = leaf.wire
        wire.nodes.append(nil)
        #expect(throws: MLSError(.invalidTree, "")) { try RatchetTree(wire: wire) }
        wire.nodes.removeLast()
        wire.nodes.insert(wire.nodes[0], at: 1)
        wire.nodes.append(wire.nodes[0])
        #expect(throws: MLSError(.invalidTree, "")) { try RatchetTree(wire: wire) }
        #expect(throws: MLSError(.invalidTree, "")) { try RatchetTree(wire: RatchetTreeNodes(nodes: [])) }
    }

    static func firstTree() throws -> [UInt8] {
        struct Minimal: Decodable { let tree: Hex }
        return try ConformanceTestSupportLoader.first(Minimal.self, "tree-validation.json").tree.bytes
    }
}
