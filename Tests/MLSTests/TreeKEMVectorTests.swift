import ConformanceTestSupport
import MLS
import TLSCodec
import Testing

/// treekem.json: merge and decrypt every UpdatePath as every other member, then create our own
/// UpdatePath from each sender and have every other member decrypt it.
@Suite struct TreeKEMVectorTests {
    struct Case: SuiteCase {
        struct LeafPrivate: Decodable {
            struct PathSecret: Decodable {
                let node: UInt32
                let path_secret: Hex
            }
            let index: UInt32
            let encryption_priv: Hex
            let signature_priv: Hex
            let path_secrets: [PathSecret]
        }
        struct Update: Decodable {
            let sender: UInt32
            let update_path: Hex
            let path_secrets: [Hex?]
            let commit_secret: Hex
            let tree_hash_after: Hex
        }
        let cipher_suite: UInt16
        let group_id: Hex
        let epoch: UInt64
        let confirmed_transcript_hash: Hex
        let ratchet_tree: Hex
        let leaves_private: [LeafPrivate]
        let update_paths: [Update]
    }

    @Test func treeKEMVectors() throws {
        var generator = TestGenerator(seed: 7)
        try VectorRun.suites("treekem.json", Case.self) { c, suite, checks in
            let tree = try RatchetTree(bytes: c.ratchet_tree.bytes)
            func context(_ treeHash: [UInt8]) -> GroupContext {
                GroupContext(
                    cipherSuite: suite.id, groupID: c.group_id.bytes, epoch: c.epoch, treeHash: treeHash,
                    confirmedTranscriptHash: c.confirmed_transcript_hash.bytes, extensions: [])
            }
            var privates: [UInt32: TreePrivateKeys] = [:]
            var signers: [UInt32: [UInt8]] = [:]
            for p in c.leaves_private {
                var keys = TreePrivateKeys(leaf: p.index, leafPrivateKey: p.encryption_priv.bytes)
                for s in p.path_secrets {
                    keys.keys[s.node] = try PathSecret.keyPair(suite: suite, pathSecret: s.path_secret.bytes).privateKey
                }
                checks.require(keys.isConsistent(with: tree, suite: suite), "leaves_private[\(p.index)] consistent")
                checks.equal(
                    try suite.signaturePublicKey(of: p.signature_priv.bytes), tree.leaf(p.index)?.signatureKey,
                    "leaves_private[\(p.index)].signature_priv")
                privates[p.index] = keys
                signers[p.index] = p.signature_priv.bytes
            }
            checks.equal(Set(privates.keys), Set(tree.occupiedLeaves), "leaves_private covers every member")

            for (u, update) in c.update_paths.enumerated() {
                let name = "update_paths[\(u)]"
                let path = try UpdatePath(tlsBytes: update.update_path.bytes)
                var merged = tree
                checks.noThrow("\(name) merge") {
                    try merged.merge(path, sender: update.sender, suite: suite, groupID: c.group_id.bytes)
                }
                checks.noThrow("\(name) parent hashes after merge") { try merged.verifyParentHashes(suite: suite) }
                let treeHash = merged.treeHash(suite: suite)
                checks.equal(treeHash, update.tree_hash_after.bytes, "\(name).tree_hash_after")
                checks.equal(update.path_secrets.count, Int(tree.leafCount), "\(name).path_secrets count")
                for (j, keys) in privates where j != update.sender {
                    var mine = keys
                    let got = checks.noThrow("\(name) decrypt as \(j)") {
                        try merged.decryptPath(
                            path, sender: update.sender, keys: &mine, excluded: [], context: context(treeHash),
                            suite: suite)
                    }
                    checks.equal(got?.pathSecret, update.path_secrets[Int(j)]?.bytes, "\(name).path_secrets[\(j)]")
                    checks.equal(got?.commitSecret, update.commit_secret.bytes, "\(name).commit_secret as \(j)")
                    checks.require(mine.isConsistent(with: merged, suite: suite), "\(name) keys of \(j) after merge")
                }

                // Our own UpdatePath from the same sender.
                guard let signer = signers[update.sender], let leaf = tree.leaf(update.sender) else {
                    checks.require(false, "\(name) sender has private keys")
                    continue
                }
                var ours = tree
                let created = try ours.createUpdatePath(
                    suite: suite, sender: update.sender, leafNode: leaf, signaturePrivateKey: signer,
                    groupID: c.group_id.bytes, excluded: [], context: context, using: &generator)
                checks.require(created.privateKeys.isConsistent(with: ours, suite: suite), "\(name) new sender keys")
                let bytes = try created.path.tlsSerialized()
                for (j, keys) in privates where j != update.sender {
                    var receiver = tree
                    var mine = keys
                    let got = checks.noThrow("\(name) our path as \(j)") {
                        try receiver.merge(
                            UpdatePath(tlsBytes: bytes), sender: update.sender, suite: suite, groupID: c.group_id.bytes)
                        return try receiver.decryptPath(
                            created.path, sender: update.sender, keys: &mine, excluded: [],
                            context: context(receiver.treeHash(suite: suite)), suite: suite)
                    }
                    checks.equal(got?.commitSecret, created.commitSecret, "\(name) our commit secret as \(j)")
                    checks.equal(receiver, ours, "\(name) our merged tree as \(j)")
                }
            }
        }
    }
}
