// Making key packages and new groups (RFC 9420 §10, §11).
import TLSCodec

extension KeyPackagePrivate {
    /// Generates a signed KeyPackage with fresh init and encryption keys drawn from `generator`.
    /// - Parameters:
    ///   - signatureKeyPair: the member's long-term signing key (private seed, public key).
    ///   - lifetime: the validity window, in seconds since the epoch, chosen by the caller.
    ///   - extensions: KeyPackage extensions, e.g. last_resort.
    public static func generate(
        suite: CipherSuite, credential: Credential, signatureKeyPair: (privateKey: [UInt8], publicKey: [UInt8]),
        capabilities: Capabilities = Capabilities(), lifetime: Lifetime, leafExtensions: [Extension] = [],
        extensions: [Extension] = [], using generator: inout some RandomNumberGenerator
    ) throws(MLSError) -> KeyPackagePrivate {
        let initKeys = try suite.deriveKeyPair(secret: suite.randomBytes(suite.hashLength, using: &generator))
        let leafKeys = try suite.deriveKeyPair(secret: suite.randomBytes(suite.hashLength, using: &generator))
        var leaf = LeafNode(
            encryptionKey: leafKeys.publicKey, signatureKey: signatureKeyPair.publicKey, credential: credential,
            capabilities: capabilities, source: .keyPackage(lifetime), extensions: leafExtensions)
        try leaf.sign(suite: suite, privateKey: signatureKeyPair.privateKey, groupID: [], leafIndex: 0)
        var keyPackage = KeyPackage(
            cipherSuite: suite.id, initKey: initKeys.publicKey, leafNode: leaf, extensions: extensions)
        try keyPackage.sign(suite: suite, privateKey: signatureKeyPair.privateKey)
        return KeyPackagePrivate(
            keyPackage: keyPackage, initPrivateKey: initKeys.privateKey, encryptionPrivateKey: leafKeys.privateKey,
            signaturePrivateKey: signatureKeyPair.privateKey)
    }
}

extension Group {
    /// Creates a one-member group at epoch 0 (§11) with the creator's key package leaf.
    /// - Parameters:
    ///   - extensions: GroupContext extensions, e.g. required_capabilities.
    public init(
        creating groupID: [UInt8], creator: KeyPackagePrivate, extensions: [Extension] = [],
        using generator: inout some RandomNumberGenerator
    ) throws(MLSError) {
        let suite = try CipherSuite(id: creator.keyPackage.cipherSuite)
        let tree = RatchetTree(firstLeaf: creator.keyPackage.leafNode)
        try Group.checkRequiredCapabilities(extensions, leaf: creator.keyPackage.leafNode)
        let context = GroupContext(
            cipherSuite: suite.id, groupID: groupID, epoch: 0, treeHash: tree.treeHash(suite: suite),
            confirmedTranscriptHash: [], extensions: extensions)
        let secrets = EpochSecrets(
            suite: suite, initSecret: suite.randomBytes(suite.hashLength, using: &generator),
            commitSecret: [UInt8](repeating: 0, count: suite.hashLength), pskSecret: nil,
            groupContext: try serialize(context))
        let tag = suite.confirmationTag(confirmationKey: secrets.confirmationKey, confirmedTranscriptHash: [])
        self.suite = suite
        self.context = context
        self.tree = tree
        privateKeys = TreePrivateKeys(leaf: 0, leafPrivateKey: creator.encryptionPrivateKey)
        self.secrets = secrets
        secretTree = SecretTree(suite: suite, encryptionSecret: secrets.encryptionSecret, leafCount: 1)
        interimTranscriptHash = suite.interimTranscriptHash(confirmed: [], confirmationTag: tag)
        confirmationTag = tag
        signaturePrivateKey = creator.signaturePrivateKey
        resumptionPSKs[0] = secrets.resumptionPSK
    }
}
