import Nostr

/// The inputs of MIP-01 group creation.
public struct GroupCreation: Hashable, Sendable {
    public var creator: PublicKey
    /// Signed key-package events (kind 30443 or 443) of the invitees, in welcome order.
    public var keyPackages: [Event]
    public var name: String
    public var description: String
    public var relays: [String]
    public var admins: [PublicKey]

    public init(
        creator: PublicKey,
        keyPackages: [Event],
        name: String,
        description: String = "",
        relays: [String],
        admins: [PublicKey]
    ) {
        self.creator = creator
        self.keyPackages = keyPackages
        self.name = name
        self.description = description
        self.relays = relays
        self.admins = admins
    }
}

/// A new group, already merged at the creator, and the kind-444 welcome rumors to gift-wrap to the
/// invitees (same order as `GroupCreation.keyPackages`).
public struct CreatedGroup: Hashable, Sendable {
    public let group: GroupSnapshot
    public let welcomeRumors: [UnsignedEvent]

    public init(group: GroupSnapshot, welcomeRumors: [UnsignedEvent]) {
        self.group = group
        self.welcomeRumors = welcomeRumors
    }
}

/// Which parts of the Marmot group data (extension 0xF2EE) a commit changes; nil leaves a field as is.
public struct GroupDataChanges: Hashable, Sendable, Codable {
    public var name: String?
    public var description: String?
    public var relays: [String]?
    public var admins: [PublicKey]?
    /// A new group image (hash, key and nonce together: MIP-01 never changes one without the others).
    public var image: GroupImage?
    /// A new `nostr_group_id` (32 bytes): the routing rotation of the current profile's component
    /// 0x8004 (nostr-routing-v1.md). The commit that carries it is published at the old address.
    public var nostrGroupID: [UInt8]?

    public init(
        name: String? = nil, description: String? = nil, relays: [String]? = nil, admins: [PublicKey]? = nil,
        image: GroupImage? = nil, nostrGroupID: [UInt8]? = nil
    ) {
        self.name = name
        self.description = description
        self.relays = relays
        self.admins = admins
        self.image = image
        self.nostrGroupID = nostrGroupID
    }
}
