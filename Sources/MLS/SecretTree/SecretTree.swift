// The secret tree of RFC 9420 §9: the epoch's encryption_secret sits at the root, each child is
// ExpandWithLabel(parent, "tree", "left" | "right", Nh), and each leaf seeds a handshake and an
// application ratchet. Node secrets are derived on demand and deleted once their children exist,
// so a compromise later in the epoch does not expose keys already used.
import ErrorCodes

extension MLSError.Code {
    /// A leaf index outside the tree.
    public static let invalidLeafIndex = Self("mls.invalidLeafIndex")
}

/// Which of a leaf's two ratchets.
package enum ContentRatchet: Sendable {
    case handshake
    case application
}

/// Per-epoch sender ratchets for every leaf (`package`: its keys never leave this package).
package struct SecretTree: Sendable {
    package let suite: CipherSuite
    package let leafCount: UInt32
    // Internal rather than private: SecretTree+Persistence.swift writes and restores them.
    var nodeSecrets: [UInt32: [UInt8]]
    var handshake: [UInt32: SenderRatchet] = [:]
    var application: [UInt32: SenderRatchet] = [:]

    package init(suite: CipherSuite, encryptionSecret: [UInt8], leafCount: UInt32) {
        self.suite = suite
        self.leafCount = leafCount
        nodeSecrets = [TreeMath.root(leafCount): encryptionSecret]
    }

    /// The key for `generation` of `leaf`'s ratchet, for receiving.
    package mutating func key(
        leaf: UInt32, ratchet: ContentRatchet, generation: UInt32
    ) throws(MLSError) -> RatchetKey {
        var r = try takeRatchet(leaf: leaf, ratchet)
        defer { putRatchet(r, leaf: leaf, ratchet) }
        return try r.key(for: generation)
    }

    /// The next key of `leaf`'s ratchet, for sending.
    package mutating func nextKey(leaf: UInt32, ratchet: ContentRatchet) throws(MLSError) -> RatchetKey {
        var r = try takeRatchet(leaf: leaf, ratchet)
        defer { putRatchet(r, leaf: leaf, ratchet) }
        return try r.next()
    }

    private mutating func takeRatchet(leaf: UInt32, _ kind: ContentRatchet) throws(MLSError) -> SenderRatchet {
        if let existing = kind == .handshake ? handshake[leaf] : application[leaf] { return existing }
        guard leaf < leafCount else { throw MLSError(.invalidLeafIndex, "leaf \(leaf) of \(leafCount)") }
        let leafSecret = try deriveLeafSecret(TreeMath.nodeIndex(ofLeaf: leaf))
        handshake[leaf] = SenderRatchet(
            suite: suite,
            secret: suite.expandWithLabel(secret: leafSecret, label: "handshake", context: [], length: suite.hashLength))
        application[leaf] = SenderRatchet(
            suite: suite,
            secret: suite.expandWithLabel(secret: leafSecret, label: "application", context: [], length: suite.hashLength))
        guard let made = kind == .handshake ? handshake[leaf] : application[leaf] else {
            throw MLSError(.invalidLeafIndex, "leaf \(leaf)")
        }
        return made
    }

    private mutating func putRatchet(_ r: SenderRatchet, leaf: UInt32, _ kind: ContentRatchet) {
        switch kind {
        case .handshake: handshake[leaf] = r
        case .application: application[leaf] = r
        }
    }

    /// Walks down from the nearest stored ancestor, storing siblings and deleting each parent.
    private mutating func deriveLeafSecret(_ node: UInt32) throws(MLSError) -> [UInt8] {
        let path = [node] + TreeMath.directPath(node, leaves: leafCount)
        guard let start = path.firstIndex(where: { nodeSecrets[$0] != nil }) else {
            throw MLSError(.keyConsumed, "secret of node \(node) already consumed")
        }
        var index = start
        while index > 0 {
            let parent = path[index]
            guard let secret = nodeSecrets.removeValue(forKey: parent),
                let left = TreeMath.left(parent), let right = TreeMath.right(parent)
            else { throw MLSError(.keyConsumed, "secret of node \(parent) missing") }
            nodeSecrets[left] = suite.expandWithLabel(secret: secret, label: "tree", context: Array("left".utf8), length: suite.hashLength)
            nodeSecrets[right] = suite.expandWithLabel(
                secret: secret, label: "tree", context: Array("right".utf8), length: suite.hashLength)
            index -= 1
        }
        guard let leafSecret = nodeSecrets.removeValue(forKey: node) else {
            throw MLSError(.keyConsumed, "secret of node \(node) missing")
        }
        return leafSecret
    }
}

extension CipherSuite {
    /// The sender-data key and nonce for a PrivateMessage (§6.3.2): derived from the first Nh
    /// bytes of the content ciphertext, or all of it when shorter.
    package func senderDataKeyAndNonce(senderDataSecret: [UInt8], ciphertext: [UInt8]) -> (key: [UInt8], nonce: [UInt8]) {
        let sample = Array(ciphertext.prefix(hashLength))
        return (
            expandWithLabel(secret: senderDataSecret, label: "key", context: sample, length: aeadKeyLength),
            expandWithLabel(secret: senderDataSecret, label: "nonce", context: sample, length: aeadNonceLength)
        )
    }
}
