// What one member knows privately about the tree: its own leaf index and the HPKE private keys of
// its leaf and of the parents on its direct path that it has learned path secrets for.

/// A member's private view of the ratchet tree (`package`: private keys stay inside this package).
package struct TreePrivateKeys: Hashable, Sendable {
    package var leaf: UInt32
    /// HPKE private keys by node index.
    package var keys: [UInt32: [UInt8]]

    package init(leaf: UInt32, leafPrivateKey: [UInt8]) {
        self.leaf = leaf
        keys = [TreeMath.nodeIndex(ofLeaf: leaf): leafPrivateKey]
    }

    /// Learns the keys of `node` and every node above it on `chain` from one path secret (§7.4).
    /// - Returns: the last path secret of the chain.
    @discardableResult
    mutating func learn(
        suite: CipherSuite, pathSecret: [UInt8], chain: ArraySlice<UInt32>
    ) throws(MLSError) -> [UInt8] {
        var secret = pathSecret
        var last = pathSecret
        for node in chain {
            keys[node] = try PathSecret.keyPair(suite: suite, pathSecret: secret).privateKey
            last = secret
            secret = PathSecret.next(suite: suite, secret)
        }
        return last
    }

    /// Checks every key against the public tree: the node must be non-blank with the matching public key.
    package func isConsistent(with tree: RatchetTree, suite: CipherSuite) -> Bool {
        keys.allSatisfy { node, privateKey in
            guard let publicKey = tree[node: node]?.encryptionKey else { return false }
            return (try? suite.hpkePublicKey(of: privateKey)) == publicKey
        }
    }
}

/// The path-secret chain of §7.4:
/// path_secret[n] = DeriveSecret(path_secret[n-1], "path"),
/// node_secret[n] = DeriveSecret(path_secret[n], "node"), node key pair = DeriveKeyPair(node_secret[n]).
public enum PathSecret {
    /// The path secret of the next node up the filtered direct path.
    public static func next(suite: CipherSuite, _ pathSecret: [UInt8]) -> [UInt8] {
        suite.deriveSecret(secret: pathSecret, label: "path")
    }

    /// The HPKE key pair of the node that holds `pathSecret`.
    public static func keyPair(
        suite: CipherSuite, pathSecret: [UInt8]
    ) throws(MLSError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
        try suite.deriveKeyPair(secret: suite.deriveSecret(secret: pathSecret, label: "node"))
    }
}
