import MLS
import TLSCodec

/// The MLS capabilities and group requirements Marmot members use (MIP-00, MIP-01).
package enum MarmotCapabilities {
    /// Ciphersuite 0x0001, the only one Marmot uses.
    package static let suite = CipherSuite.x25519AES128GCMSHA256Ed25519
    /// KeyPackage extensions listed in the `mls_extensions` tag: last_resort and Marmot group data.
    package static let keyPackageExtensions: [UInt16] = [ExtensionType.lastResort, GroupData.extensionType]
    /// Proposals listed in the `mls_proposals` tag: SelfRemove.
    package static let proposals: [UInt16] = [Proposal.Kind.selfRemove]

    /// The leaf capabilities of our key packages (MDK's list without GREASE values, which are optional).
    package static var leaf: Capabilities {
        Capabilities(
            versions: [ProtocolVersion.mls10], cipherSuites: [suite.id], extensions: keyPackageExtensions,
            proposals: proposals, credentials: [Credential.basicType])
    }

    /// RequiredCapabilities of a new group: 0xF2EE always; SelfRemove only when every invitee supports
    /// it, and none for a group created without invitees (MDK 0.8.0's least common denominator).
    package static func required(invitees: [KeyPackage]) -> RequiredCapabilities {
        let selfRemove =
            !invitees.isEmpty
            && invitees.allSatisfy { $0.leafNode.capabilities.proposals.contains(Proposal.Kind.selfRemove) }
        return RequiredCapabilities(
            extensionTypes: [GroupData.extensionType], proposalTypes: selfRemove ? [Proposal.Kind.selfRemove] : [],
            credentialTypes: [])
    }

    /// The GroupContext extensions of a new group, in MDK's order: 0xF2EE, then required_capabilities.
    package static func groupContextExtensions(data: GroupData, invitees: [KeyPackage]) throws(MarmotError) -> [Extension] {
        let required = try tlsEncoded(required(invitees: invitees))
        return [data.mlsExtension, Extension(type: ExtensionType.requiredCapabilities, data: required)]
    }

    /// Whether a group's RequiredCapabilities include SelfRemove (else leaving uses a Remove proposal).
    package static func requiresSelfRemove(_ extensions: [Extension]) -> Bool {
        guard let data = extensions.data(ofType: ExtensionType.requiredCapabilities),
            let required = try? RequiredCapabilities(tlsBytes: data)
        else { return false }
        return required.proposalTypes.contains(Proposal.Kind.selfRemove)
    }
}
