// One member's complete view of a group at one epoch, public and private, as the engine state file
// stores it (docs/engine-state-format.md). Everything `Group` holds is here: a restarted member
// must go on exactly as if it had never stopped, so even what looks recomputable (the tree hash
// cache lives in the context, the secret tree's consumed nodes) is written as it is.
//
// struct {
//     uint16 cipher_suite;
//     GroupContext context;
//     optional<Node> tree<V>;             // every slot of the full array, trailing blanks included
//     uint32 own_leaf;
//     NodeSecret private_keys<V>;         // HPKE private keys by node, ascending
//     EpochSecretsState secrets;
//     SecretTreeState secret_tree;
//     opaque interim_transcript_hash<V>;
//     opaque confirmation_tag<V>;
//     opaque signature_private_key<V>;
//     PendingProposal pending_proposals<V>;   // ascending by reference
//     opaque pending_order<V><V>;         // the references in arrival order (a commit covers them so)
//     KeyedSecret pending_leaf_keys<V>;   // encryption public key -> private key, ascending
//     KeyedSecret external_psks<V>;       // PSK id -> secret, ascending
//     EpochSecret resumption_psks<V>;     // uint64 epoch -> secret, ascending
//     Bool is_active;
//     optional<Proposal> reinit;
// } GroupState;
//
// struct { opaque reference<V>; Proposal proposal; Sender sender; } PendingProposal;
// struct { opaque key<V>; opaque value<V>; } KeyedSecret;
// struct { uint64 epoch; opaque secret<V>; } EpochSecret;
//
// struct {
//     opaque joiner_secret<V>; opaque welcome_secret<V>; opaque epoch_secret<V>;
//     opaque sender_data_secret<V>; opaque encryption_secret<V>; opaque exporter_secret<V>;
//     opaque external_secret<V>; opaque confirmation_key<V>; opaque membership_key<V>;
//     opaque resumption_psk<V>; opaque epoch_authenticator<V>; opaque init_secret<V>;
// } EpochSecretsState;                    // each Nh bytes, in the order of RFC 9420 §8's table
import TLSCodec

extension Group {
    /// Appends `GroupState`.
    package func encodeState(to writer: inout TLSWriter) {
        writer.write(suite.id)
        writer.write(context)
        writer.writeVector { w in for node in tree.nodes { w.writeOptional(node) } }
        writer.write(privateKeys.leaf)
        writer.writeIndexedBytes(privateKeys.keys)
        secrets.encodeState(to: &writer)
        secretTree.encodeState(to: &writer)
        writer.writeOpaque(interimTranscriptHash)
        writer.writeOpaque(confirmationTag)
        writer.writeOpaque(signaturePrivateKey)
        writer.writeMap(pendingProposals, by: bytesAscending) { w, reference, pending in
            w.writeOpaque(reference)
            w.write(pending.proposal)
            w.write(pending.sender)
        }
        writer.writeVector { w in for reference in pendingOrder { w.writeOpaque(reference) } }
        writer.writeBytesMap(pendingLeafKeys)
        writer.writeBytesMap(externalPSKs)
        writer.writeMap(resumptionPSKs, by: <) { w, epoch, secret in
            w.write(epoch)
            w.writeOpaque(secret)
        }
        writer.writeBool(isActive)
        writer.writeOptional(reInit)
    }

    /// Reads `GroupState`, checking that its parts fit together (the tree's shape, the secret tree
    /// against the tree, our private keys against the public keys of the tree), so that a state
    /// that loads is one the group operations can run on without meeting an impossible index.
    /// - Throws: `TLSCodecError`: the codec's codes for malformed bytes, `.inconsistentState` for
    ///   parts that decode but do not fit, `.invalidValue` for an unsupported suite or a bad tree.
    package init(state reader: inout TLSReader) throws(TLSCodecError) {
        let suiteID = try reader.readUInt16()
        let suite: CipherSuite
        do { suite = try CipherSuite(id: suiteID) } catch { throw TLSCodecError(.invalidValue, error.description) }
        let context = try reader.read(GroupContext.self)
        guard context.cipherSuite == suite.id else {
            throw TLSCodecError(.inconsistentState, "group context of suite \(context.cipherSuite) in a group of suite \(suite.id)")
        }
        let tree = try Self.readTree(&reader)
        let ownLeaf = try reader.readUInt32()
        guard ownLeaf < tree.leafCount else {
            throw TLSCodecError(.inconsistentState, "own leaf \(ownLeaf) outside a tree of \(tree.leafCount) leaves")
        }
        var privateKeys = TreePrivateKeys(leaf: ownLeaf, leafPrivateKey: [])
        privateKeys.keys = try reader.readIndexedBytes("private keys")
        let secrets = try EpochSecrets(state: &reader, suite: suite)
        let secretTree = try SecretTree(state: &reader, suite: suite, expectedLeafCount: tree.leafCount)
        let interim = try reader.readOpaque()
        let tag = try reader.readOpaque()
        let signatureKey = try reader.readOpaque()
        let pendingProposals = try reader.readMap("pending proposals", by: bytesAscending) {
            (r: inout TLSReader) throws(TLSCodecError) in
            (try r.readOpaque(), (proposal: try r.read(Proposal.self), sender: try r.read(Sender.self)))
        }
        let pendingOrder = try reader.readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readOpaque() }
        let pendingLeafKeys = try reader.readBytesMap("pending leaf keys")
        let externalPSKs = try reader.readBytesMap("external PSKs")
        let resumptionPSKs = try reader.readMap("resumption PSKs", by: <) { (r: inout TLSReader) throws(TLSCodecError) in
            (try r.readUInt64(), try r.readOpaque())
        }
        let isActive = try reader.readBool()
        let reInit = try reader.readOptional(of: Proposal.self)
        // A removed member's tree no longer holds its leaf, so its old keys legitimately match nothing.
        guard !isActive || privateKeys.isConsistent(with: tree, suite: suite) else {
            throw TLSCodecError(.inconsistentState, "private keys do not match the public keys of the tree")
        }
        self.suite = suite
        self.context = context
        self.tree = tree
        self.privateKeys = privateKeys
        self.secrets = secrets
        self.secretTree = secretTree
        interimTranscriptHash = interim
        confirmationTag = tag
        signaturePrivateKey = signatureKey
        self.pendingProposals = pendingProposals
        self.pendingOrder = pendingOrder
        self.pendingLeafKeys = pendingLeafKeys
        self.externalPSKs = externalPSKs
        self.resumptionPSKs = resumptionPSKs
        self.isActive = isActive
        self.reInit = reInit
    }

    /// The full node array, rebuilt through the checks a joiner applies to a received tree (shape,
    /// node kinds by index, unmerged leaves); it must come back with exactly the stored width.
    private static func readTree(_ reader: inout TLSReader) throws(TLSCodecError) -> RatchetTree {
        let nodes = try reader.readVector { (r: inout TLSReader) throws(TLSCodecError) in try r.readOptional(of: Node.self) }
        var trimmed = nodes[...]
        while let last = trimmed.last, last == nil { trimmed = trimmed.dropLast() }
        let tree: RatchetTree
        do { tree = try RatchetTree(wire: RatchetTreeNodes(nodes: Array(trimmed))) } catch {
            throw TLSCodecError(.inconsistentState, "ratchet tree: \(error.description)")
        }
        guard tree.nodes.count == nodes.count else {
            throw TLSCodecError(.inconsistentState, "ratchet tree of \(nodes.count) nodes is not a full tree of \(tree.nodes.count)")
        }
        return tree
    }
}

extension EpochSecrets {
    func encodeState(to writer: inout TLSWriter) {
        for secret in [
            joinerSecret, welcomeSecret, epochSecret, senderDataSecret, encryptionSecret, exporterSecret, externalSecret,
            confirmationKey, membershipKey, resumptionPSK, epochAuthenticator, initSecret,
        ] { writer.writeOpaque(secret) }
    }

    init(state reader: inout TLSReader, suite: CipherSuite) throws(TLSCodecError) {
        func secret(_ name: String) throws(TLSCodecError) -> [UInt8] {
            try reader.readOpaque(exactly: suite.hashLength, name)
        }
        self.suite = suite
        joinerSecret = try secret("joiner_secret")
        welcomeSecret = try secret("welcome_secret")
        epochSecret = try secret("epoch_secret")
        senderDataSecret = try secret("sender_data_secret")
        encryptionSecret = try secret("encryption_secret")
        exporterSecret = try secret("exporter_secret")
        externalSecret = try secret("external_secret")
        confirmationKey = try secret("confirmation_key")
        membershipKey = try secret("membership_key")
        resumptionPSK = try secret("resumption_psk")
        epochAuthenticator = try secret("epoch_authenticator")
        initSecret = try secret("init_secret")
    }
}

// struct {
//     KeyPackage key_package;
//     opaque init_private_key<V>;
//     opaque encryption_private_key<V>;
//     opaque signature_private_key<V>;
// } KeyPackagePrivateState;
extension KeyPackagePrivate {
    package func encodeState(to writer: inout TLSWriter) {
        writer.write(keyPackage)
        writer.writeOpaque(initPrivateKey)
        writer.writeOpaque(encryptionPrivateKey)
        writer.writeOpaque(signaturePrivateKey)
    }

    package init(state reader: inout TLSReader) throws(TLSCodecError) {
        self.init(
            keyPackage: try reader.read(KeyPackage.self), initPrivateKey: try reader.readOpaque(),
            encryptionPrivateKey: try reader.readOpaque(), signaturePrivateKey: try reader.readOpaque())
    }
}
