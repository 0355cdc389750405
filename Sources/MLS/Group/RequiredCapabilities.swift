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
    }
}

extension Group {
    /// The leaf checks of §7.3 that a joiner applies to the whole tree: signature and encryption
    /// keys unique across leaves, every leaf meeting the group's required capabilities, and every
    /// credential type in use supported by every member.
    static func validateLeaves(of tree: RatchetTree, extensions: [Extension]) throws(MLSError) {
        let leaves = tree.occupiedLeaves.compactMap { tree.leaf($0) }
        guard Set(leaves.map(\.signatureKey)).count == leaves.count,
            Set(tree.nodes.compactMap { $0?.encryptionKey }).count == tree.nodes.compactMap({ $0 }).count
        else { throw MLSError(.invalidTree, "a signature or encryption key appears twice in the tree") }
        let credentialTypes = Set(leaves.map(\.credential.type))
        for leaf in leaves {
            try checkRequiredCapabilities(extensions, leaf: leaf)
            guard credentialTypes.isSubset(of: leaf.capabilities.credentials) else {
                throw MLSError(.missingCapability, "a member does not support every credential type in use")
            }
        }
    }
}
