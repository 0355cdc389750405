import MLS

// uint16 ComponentID;   (draft-ietf-mls-extensions-10, "Application components")
//
// Marmot components use the private-use range 0x8000...0xffff (marmot-protocol/marmot
// foundation/registries.md); the draft's own ids 0x0001 (app_components), 0x0002 (safe_aad) and
// 0x0004 (last_resort_key_package) sit below it.
/// An application component id: the key of an `app_data_dictionary` entry and the unit that
/// `app_components` lists advertise and require. A struct over the raw value, not a closed enum, so
/// unknown ids round-trip untouched.
package struct AppComponentID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    package var rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }
    package init(_ rawValue: UInt16) { self.rawValue = rawValue }

    // Upstream (MLS extensions draft) component ids.
    /// `app_components`: in a LeafNode the ids it supports, in a GroupContext the ids the group requires.
    package static let appComponents = Self(ComponentID.appComponents)
    /// `safe_aad`: understood by every dictionary implementation; Marmot groups do not enable it.
    package static let safeAAD = Self(ComponentID.safeAAD)
    /// `last_resort_key_package`: empty data in a KeyPackage-level dictionary marks a last-resort package.
    package static let lastResortKeyPackage = Self(ComponentID.lastResortKeyPackage)

    // Marmot component ids (foundation/registries.md).
    package static let groupProfile = Self(0x8001)
    package static let groupBlossomImage = Self(0x8002)
    package static let adminPolicy = Self(0x8003)
    package static let nostrRouting = Self(0x8004)
    package static let messageRetention = Self(0x8005)
    package static let agentTextStream = Self(0x8006)
    package static let groupAvatarURL = Self(0x8007)
    /// Frozen v1 media policy: registered so the id is never reused; not part of the current profile.
    package static let encryptedMediaV1 = Self(0x8008)
    package static let accountIdentityProof = Self(0x8009)
    package static let encryptedMediaV2 = Self(0x800b)
    package static let groupLifecycle = Self(0x800c)
    /// Draft allocation (message pins); listed so a reader can name it.
    package static let messagePins = Self(0x800f)

    /// The registry name, for reports and reasons.
    package var name: String {
        switch self {
        case .appComponents: "app_components"
        case .safeAAD: "safe_aad"
        case .lastResortKeyPackage: "last_resort_key_package"
        case .groupProfile: "marmot.group.profile.v1"
        case .groupBlossomImage: "marmot.group.blossom.image.v1"
        case .adminPolicy: "marmot.group.admin-policy.v1"
        case .nostrRouting: "marmot.transport.nostr.routing.v1"
        case .messageRetention: "marmot.group.message-retention.v1"
        case .agentTextStream: "marmot.group.agent-text-stream.quic.v1"
        case .groupAvatarURL: "marmot.group.avatar-url.v1"
        case .encryptedMediaV1: "marmot.group.encrypted-media.v1"
        case .accountIdentityProof: "marmot.member.account-identity-proof.v2"
        case .encryptedMediaV2: "marmot.group.encrypted-media.v2"
        case .groupLifecycle: "marmot.group.lifecycle.v1"
        case .messagePins: "marmot.group.message-pins.v1"
        default: "unregistered"
        }
    }

    /// `0x%04x`, lower case: the form of id-list tags and of the proof template's `component` tag.
    package var hexTag: String { KeyPackageEvent.hexTag(rawValue) }

    package var description: String { "\(hexTag) (\(name))" }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The MLS code points of the extensions draft that the current profile uses, pinned as
/// foundation/registries.md pins them (draft-ietf-mls-extensions-10), taken from the MLS target
/// where it names them. The MLS target owns their framing; Marmot names them to build tags and
/// check capabilities.
package enum CurrentProfileCodePoints {
    /// Extension type `app_data_dictionary` (GroupContext, LeafNode, KeyPackage, GroupInfo).
    package static let appDataDictionary: UInt16 = ExtensionType.appDataDictionary
    /// Proposal type `app_data_update`.
    package static let appDataUpdate: UInt16 = Proposal.Kind.appDataUpdate
    /// Proposal type `app_ephemeral`.
    package static let appEphemeral: UInt16 = 0x0009
    /// Proposal type `self_remove`.
    package static let selfRemove: UInt16 = Proposal.Kind.selfRemove
    /// The legacy MIP-01 group-data extension: its presence marks a legacy (or mixed) group.
    package static let legacyGroupData: UInt16 = GroupData.extensionType
    /// The superseded v1 account-identity-proof extension: never accepted in place of 0x8009.
    package static let legacyIdentityProof: UInt16 = 0xf2f1
}

// LeafNode capability markers of marmot.group.agent-text-stream.quic.v1: extension types that carry
// no data and appear only in `LeafNode.capabilities.extensions` (registries.md, "Marmot custom MLS
// extension types"). 0xf2d3 is deliberately unassigned.
/// A member role of the agent text stream component, advertised as an MLS extension type.
package struct AgentStreamRole: OptionSet, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Understands the component and falls back to the durable final message (0xf2d1).
    package static let receive = Self(rawValue: 0x01)
    /// Originates live raw-QUIC preview records (0xf2d2).
    package static let send = Self(rawValue: 0x02)
    /// Forwards stream records for others (0xf2d4).
    package static let fanout = Self(rawValue: 0x04)
    package static let all: Self = [.receive, .send, .fanout]

    /// The capability extension type of each role bit.
    package static let capabilityTypes: [(role: Self, extensionType: UInt16)] = [
        (.receive, 0xf2d1), (.send, 0xf2d2), (.fanout, 0xf2d4),
    ]

    /// The roles a leaf advertises through its capabilities.
    package init(advertisedBy capabilities: Capabilities) {
        var roles: Self = []
        for (role, type) in Self.capabilityTypes where capabilities.extensions.contains(type) { roles.insert(role) }
        self = roles
    }
}
