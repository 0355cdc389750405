import ErrorCodes
import TLSCodec

// struct {
//     ExtensionType extension_types<V>;
//     ProposalType proposal_types<V>;
//     CredentialType credential_types<V>;
// } RequiredCapabilities;
/// What every member must support (GroupContext extension 0x0003).
public struct RequiredCapabilities: TLSCodable, Hashable, Sendable {
    public var extensionTypes: [UInt16]
    public var proposalTypes: [UInt16]
    public var credentialTypes: [UInt16]

    public init(extensionTypes: [UInt16], proposalTypes: [UInt16], credentialTypes: [UInt16]) {
        self.extensionTypes = extensionTypes
        self.proposalTypes = proposalTypes
        self.credentialTypes = credentialTypes
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(extensionTypes)
        writer.writeVector(proposalTypes)
        writer.writeVector(credentialTypes)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        extensionTypes = try reader.readVector(of: UInt16.self)
        proposalTypes = try reader.readVector(of: UInt16.self)
        credentialTypes = try reader.readVector(of: UInt16.self)
    }
}

extension MLSError.Code {
    /// A member lacks a capability the group requires.
    public static let missingCapability = Self("mls.missingCapability")
}

extension Group {
    /// Checks `leaf` against the group's required_capabilities and its own extensions (§7.2,
    /// §11.1). Default types need not be listed; unknown and GREASE values are ignored.
    static func checkRequiredCapabilities(_ extensions: [Extension], leaf: LeafNode) throws(MLSError) {
        let caps = leaf.capabilities
        for ext in leaf.extensions where !ExtensionType.defaults.contains(ext.type) {
            guard caps.extensions.contains(ext.type) else {
                throw MLSError(.missingCapability, "leaf uses extension \(ext.type) it does not list")
            }
        }
        guard let data = extensions.data(ofType: ExtensionType.requiredCapabilities) else { return }
        let required = try decodeExactly(RequiredCapabilities.self, from: data)
        for type in required.extensionTypes where !ExtensionType.defaults.contains(type) {
            guard caps.extensions.contains(type) else {
                throw MLSError(.missingCapability, "required extension \(type) not supported")
            }
        }
        for type in required.proposalTypes where !Proposal.Kind.defaults.contains(type) {
            guard caps.proposals.contains(type) else {
                throw MLSError(.missingCapability, "required proposal \(type) not supported")
            }
        }
        for type in required.credentialTypes {
            guard caps.credentials.contains(type) else {
                throw MLSError(.missingCapability, "required credential \(type) not supported")
            }
        }
        try checkRequiredComponents(extensions, leaf: leaf)
    }

    /// The MLS extensions draft's component negotiation: the `app_components` entry of the
    /// GroupContext's app_data_dictionary lists the components every member must support, and a
    /// leaf lists the ones it supports in the `app_components` entry of its own dictionary.
    /// A group without that entry requires none (so a group without a dictionary, every legacy
    /// group, is never affected).
    /// - Throws: `.missingCapability` naming the first component the leaf lacks; `.malformed`
    ///   when a dictionary or its entry does not decode.
    static func checkRequiredComponents(_ extensions: [Extension], leaf: LeafNode) throws(MLSError) {
        guard let required = try extensions.appDataDictionary()?.appComponents(), !required.isEmpty else { return }
        let supported = Set(try leaf.supportedComponents())
        for component in required where !supported.contains(component) {
            throw MLSError(.missingCapability, "required component 0x\(String(component, radix: 16)) not supported")
        }
    }
}

extension Group {
    /// §7.3: no signature key appears at two leaves and no encryption key at two nodes of `tree`.
    /// - Throws: `.invalidTree`.
    static func requireUniqueKeys(in tree: RatchetTree) throws(MLSError) {
        let leaves = tree.occupiedLeaves.compactMap { tree.leaf($0) }
        let keys = tree.nodes.compactMap { $0?.encryptionKey }
        guard Set(leaves.map(\.signatureKey)).count == leaves.count, Set(keys).count == keys.count else {
            throw MLSError(.invalidTree, "a signature or encryption key appears twice in the tree")
        }
    }

    /// §7.2 both ways for one leaf among `members`: it supports every credential type they use,
    /// and each of them supports its credential type.
    /// - Throws: `.missingCapability`.
    static func checkCredentialTypes(of leaf: LeafNode, among members: [LeafNode]) throws(MLSError) {
        guard Set(members.map(\.credential.type)).isSubset(of: leaf.capabilities.credentials),
            members.allSatisfy({ $0.capabilities.credentials.contains(leaf.credential.type) })
        else { throw MLSError(.missingCapability, "credential types are not supported on both sides") }
    }

    /// The capability checks of §7.3 for every leaf of `tree`, as a joiner makes them: each leaf
    /// meets the group's required capabilities, and supports every credential type in use.
    /// - Throws: `.missingCapability`.
    static func checkLeafCapabilities(in tree: RatchetTree, extensions: [Extension]) throws(MLSError) {
        let leaves = tree.occupiedLeaves.compactMap { tree.leaf($0) }
        for leaf in leaves {
            try checkRequiredCapabilities(extensions, leaf: leaf)
            try checkCredentialTypes(of: leaf, among: leaves)
        }
    }

    /// §7.3 for a commit's UpdatePath leaf, once merged into the new `tree`: keys unique in the
    /// tree, the group's required capabilities met, credential types supported both ways. The
    /// other leaves were checked when they entered the tree.
    /// - Throws: `.invalidTree`, `.missingCapability`.
    static func validatePathLeaf(_ leaf: LeafNode, in tree: RatchetTree, extensions: [Extension]) throws(MLSError) {
        try requireUniqueKeys(in: tree)
        try checkRequiredCapabilities(extensions, leaf: leaf)
        try checkCredentialTypes(of: leaf, among: tree.occupiedLeaves.compactMap { tree.leaf($0) })
    }
}
