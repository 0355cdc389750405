import Nostr

/// The inputs of MIP-01 group creation.
package struct GroupCreation: Hashable, Sendable {
    package var creator: PublicKey
    /// Signed key-package events (kind 30443 or 443) of the invitees, in welcome order.
    package var keyPackages: [Event]
    package var name: String
    package var description: String
    package var relays: [String]
    package var admins: [PublicKey]

    package init(
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
package struct CreatedGroup: Hashable, Sendable {
    package let group: GroupSnapshot
    package let welcomeRumors: [UnsignedEvent]

    package init(group: GroupSnapshot, welcomeRumors: [UnsignedEvent]) {
        self.group = group
        self.welcomeRumors = welcomeRumors
    }
}

/// Which parts of the Marmot group data (extension 0xF2EE) a commit changes; nil leaves a field as is.
package struct GroupDataChanges: Hashable, Sendable {
    package var name: String?
    package var description: String?
    package var relays: [String]?
    package var admins: [PublicKey]?

    package init(name: String? = nil, description: String? = nil, relays: [String]? = nil, admins: [PublicKey]? = nil) {
        self.name = name
        self.description = description
        self.relays = relays
        self.admins = admins
    }
}
