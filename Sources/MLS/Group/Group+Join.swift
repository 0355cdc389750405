// Joining from a Welcome (RFC 9420 §12.4.3.1).
import TLSCodec

/// The private half of a KeyPackage, kept by its owner until a Welcome consumes it.
public struct KeyPackagePrivate: Sendable {
    public var keyPackage: KeyPackage
    // The private keys go in through `init` and are read only inside this package.
    package var initPrivateKey: [UInt8]
    package var encryptionPrivateKey: [UInt8]
    package var signaturePrivateKey: [UInt8]

    public init(keyPackage: KeyPackage, initPrivateKey: [UInt8], encryptionPrivateKey: [UInt8], signaturePrivateKey: [UInt8]) {
        self.keyPackage = keyPackage
        self.initPrivateKey = initPrivateKey
        self.encryptionPrivateKey = encryptionPrivateKey
        self.signaturePrivateKey = signaturePrivateKey
    }
}

/// What a Welcome reveals to one invitee before it commits to joining.
public struct OpenedWelcome: Sendable {
    // The secrets it reveals stay inside this package; the GroupInfo is public.
    package var groupSecrets: GroupSecrets
    public var groupInfo: GroupInfo
    package var pskSecret: [UInt8]
    package var epochSecrets: EpochSecrets
}

extension Welcome {
    /// Decrypts the GroupSecrets sealed to `keyPackage` and the GroupInfo, and checks the
    /// confirmation tag against the key schedule. The GroupInfo signature is checked by the caller,
    /// who knows the signer's key.
    /// - Throws: `.notInvited`, `.decryptionFailed`, `.missingPSK`, `.badConfirmationTag`, `.malformed`.
    public func open(
        keyPackage: KeyPackage, initPrivateKey: [UInt8], suite: CipherSuite,
        psks resolve: ([PreSharedKeyID]) throws(MLSError) -> [ResolvedPSK]
    ) throws(MLSError) -> OpenedWelcome {
        guard cipherSuite == suite.id else { throw MLSError(.unsupportedCipherSuite, "Welcome for suite \(cipherSuite)") }
        let ref = try keyPackage.reference(suite: suite)
        guard let mine = secrets.first(where: { $0.newMember == ref }) else {
            throw MLSError(.notInvited, "no EncryptedGroupSecrets for our key package")
        }
        // §12.4.3.1: an error "if the cipher suite indicated in the KeyPackage does not match the
        // one in the Welcome message" (the ref alone cannot tell: suites may share a hash).
        guard keyPackage.cipherSuite == cipherSuite || !ReceiverCheck.welcomeKeyPackageSuite.isOn else {
            throw MLSError(
                .unsupportedCipherSuite, "Welcome for suite \(cipherSuite), our KeyPackage is of suite \(keyPackage.cipherSuite)")
        }
        let secretsBytes = try suite.decryptWithLabel(
            privateKey: initPrivateKey, label: "Welcome", context: encryptedGroupInfo,
            ciphertext: mine.encryptedGroupSecrets)
        let groupSecrets = try decodeExactly(GroupSecrets.self, from: secretsBytes)
        let pskSecret = suite.pskSecret(try resolve(groupSecrets.psks))
        let welcomeSecret = EpochSecrets.welcomeSecret(
            suite: suite, joinerSecret: groupSecrets.joinerSecret, pskSecret: pskSecret)
        let (key, nonce) = EpochSecrets.welcomeKeyAndNonce(suite: suite, welcomeSecret: welcomeSecret)
        let groupInfoBytes = try suite.open(key: key, nonce: nonce, aad: [], ciphertext: encryptedGroupInfo)
        let groupInfo = try decodeExactly(GroupInfo.self, from: groupInfoBytes)
        guard groupInfo.groupContext.cipherSuite == suite.id || !ReceiverCheck.groupInfoSuite.isOn else {
            throw MLSError(.unsupportedCipherSuite, "GroupInfo suite differs from the Welcome's")
        }
        let epochSecrets = EpochSecrets(
            suite: suite, joinerSecret: groupSecrets.joinerSecret, pskSecret: pskSecret,
            groupContext: try serialize(groupInfo.groupContext))
        let expected = suite.confirmationTag(
            confirmationKey: epochSecrets.confirmationKey,
            confirmedTranscriptHash: groupInfo.groupContext.confirmedTranscriptHash)
        guard constantTimeEqual(expected, groupInfo.confirmationTag) || !ReceiverCheck.groupInfoConfirmationTag.isOn else {
            throw MLSError(.badConfirmationTag, "GroupInfo confirmation tag does not match")
        }
        return OpenedWelcome(
            groupSecrets: groupSecrets, groupInfo: groupInfo, pskSecret: pskSecret, epochSecrets: epochSecrets)
    }
}

extension Group {
    /// Joins a group from a Welcome.
    /// - Parameters:
    ///   - ratchetTree: the tree when the GroupInfo has no ratchet_tree extension.
    ///   - externalPSKs: external PSKs this member holds, by id.
    ///   - judge: the caller's rule, asked about the group once MLS accepts the Welcome.
    /// - Throws: any `MLSError` of `Welcome.open`, plus `.badSignature`, `.invalidTree`,
    ///   `.invalidParentHash`, `.invalidUpdatePath`, `.unsupportedVersion`, `.missingCapability`,
    ///   and what `judge` throws.
    public init(
        welcome: Welcome, keyPackage own: KeyPackagePrivate, ratchetTree: RatchetTree? = nil,
        externalPSKs: [[UInt8]: [UInt8]] = [:], judge: GroupChangeJudge = acceptEveryChange
    ) throws(MLSError) {
        let suite = try CipherSuite(id: welcome.cipherSuite)
        let opened = try welcome.open(keyPackage: own.keyPackage, initPrivateKey: own.initPrivateKey, suite: suite) {
            (ids: [PreSharedKeyID]) throws(MLSError) in
            var out: [ResolvedPSK] = []
            for id in ids {
                guard case .external(let name) = id.kind, let secret = externalPSKs[name] else {
                    throw MLSError(.missingPSK, "a Welcome PSK is not held")
                }
                out.append(ResolvedPSK(id: id, secret: secret))
            }
            return out
        }
        let info = opened.groupInfo
        try Group.requireJoinable(info.groupContext, by: own.keyPackage.leafNode)
        let tree: RatchetTree
        if let data = info.extensions.data(ofType: ExtensionType.ratchetTree) {
            tree = try RatchetTree(bytes: data)
        } else if let ratchetTree {
            tree = ratchetTree
        } else {
            throw MLSError(.invalidTree, "no ratchet tree in the GroupInfo or given")
        }
        guard let signer = tree.leaf(info.signer),
            info.verifySignature(suite: suite, publicKey: signer.signatureKey) || !ReceiverCheck.groupInfoSignature.isOn
        else { throw MLSError(.badSignature, "GroupInfo signature does not verify") }
        guard tree.treeHash(suite: suite) == info.groupContext.treeHash || !ReceiverCheck.treeHash.isOn else {
            throw MLSError(.invalidTree, "tree hash differs from the GroupContext's")
        }
        if ReceiverCheck.parentHash.isOn { try tree.verifyParentHashes(suite: suite) }
        if ReceiverCheck.joinerLeafSignatures.isOn { try tree.verifyLeafSignatures(suite: suite, groupID: info.groupContext.groupID) }
        if ReceiverCheck.joinerKeyUniqueness.isOn { try Group.requireUniqueKeys(in: tree) }
        if ReceiverCheck.joinerCapabilities.isOn { try Group.checkLeafCapabilities(in: tree, extensions: info.groupContext.extensions) }
        let me = try Group.ownLeaf(of: own.keyPackage.leafNode, in: tree)

        var keys = TreePrivateKeys(leaf: me, leafPrivateKey: own.encryptionPrivateKey)
        if let pathSecret = opened.groupSecrets.pathSecret {
            let path = tree.filteredDirectPath(of: info.signer)
            guard let start = path.firstIndex(where: { TreeMath.isInSubtree(TreeMath.nodeIndex(ofLeaf: me), of: $0) })
            else { throw MLSError(.invalidUpdatePath, "no common ancestor with the committer") }
            try keys.learn(suite: suite, pathSecret: pathSecret, chain: path[start...])
        }
        guard keys.isConsistent(with: tree, suite: suite) || !ReceiverCheck.joinerPrivateKeys.isOn else {
            throw MLSError(.invalidUpdatePath, "our private keys do not match the tree")
        }
        try judge(.welcome(WelcomeCandidate(groupInfo: info, tree: tree, ownLeaf: me)))

        self.suite = suite
        context = info.groupContext
        self.tree = tree
        privateKeys = keys
        secrets = opened.epochSecrets
        secretTree = SecretTree(suite: suite, encryptionSecret: opened.epochSecrets.encryptionSecret, leafCount: tree.leafCount)
        interimTranscriptHash = suite.interimTranscriptHash(
            confirmed: info.groupContext.confirmedTranscriptHash, confirmationTag: info.confirmationTag)
        confirmationTag = info.confirmationTag
        signaturePrivateKey = own.signaturePrivateKey
        self.externalPSKs = externalPSKs
        resumptionPSKs[context.epoch] = opened.epochSecrets.resumptionPSK
    }
}

extension Group {
    /// The joiner's leaf in the Welcome's tree: the one identical to its KeyPackage's leaf
    /// (§12.4.3.1). With `joinerOwnLeaf` off (tests only), any leaf carrying its encryption key
    /// will do, which is what the check is there to refuse.
    /// - Throws: `.notInvited`.
    static func ownLeaf(of leaf: LeafNode, in tree: RatchetTree) throws(MLSError) -> UInt32 {
        let strict = ReceiverCheck.joinerOwnLeaf.isOn
        guard
            let me = tree.occupiedLeaves.first(where: { index in
                guard let node = tree.leaf(index) else { return false }
                return strict ? node == leaf : node.encryptionKey == leaf.encryptionKey
            })
        else { throw MLSError(.notInvited, "our leaf is not in the tree") }
        return me
    }

    /// What a joiner checks of the GroupContext it is welcomed into, beyond the tree (§12.4.3.1):
    /// the protocol version is mls10 (§8.1), and our own leaf supports every non-default
    /// extension the context uses (§7.2, §13.4), so we never join a group whose rules we cannot
    /// follow.
    /// - Throws: `.unsupportedVersion`, `.missingCapability`.
    static func requireJoinable(_ context: GroupContext, by own: LeafNode) throws(MLSError) {
        guard context.version == ProtocolVersion.mls10 || !ReceiverCheck.groupContextVersion.isOn else {
            throw MLSError(.unsupportedVersion, "GroupContext version \(context.version)")
        }
        // MLS extensions draft: an app_data_dictionary holds each component once, in order; a
        // group whose dictionary does not decode has no agreed value for its components.
        _ = try context.extensions.appDataDictionary()
        guard ReceiverCheck.joinerExtensions.isOn else { return }
        for item in context.extensions where !ExtensionType.defaults.contains(item.type) {
            guard own.capabilities.extensions.contains(item.type) else {
                throw MLSError(.missingCapability, "GroupContext extension \(item.type) is not in our capabilities")
            }
        }
    }
}
