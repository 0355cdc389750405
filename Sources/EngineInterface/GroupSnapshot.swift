import Nostr

/// One member's stored view of a group.
package struct GroupSnapshot: Hashable, Sendable {
    /// Membership state as the engine reports it.
    package struct State: RawRepresentable, Hashable, Sendable {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package static let active = Self(rawValue: "active")
        package static let inactive = Self(rawValue: "inactive")
        package static let pending = Self(rawValue: "pending")
    }

    package let mlsGroupID: MLSGroupID
    /// hex of the 32-byte Marmot group id carried in kind-445 `h` tags.
    package let nostrGroupID: String
    package let name: String
    package let description: String
    /// Sorted ascending.
    package let admins: [PublicKey]
    package let epoch: UInt64
    package let state: State

    package init(
        mlsGroupID: MLSGroupID,
        nostrGroupID: String,
        name: String,
        description: String,
        admins: [PublicKey],
        epoch: UInt64,
        state: State
    ) {
        self.mlsGroupID = mlsGroupID
        self.nostrGroupID = nostrGroupID
        self.name = name
        self.description = description
        self.admins = admins.sorted()
        self.epoch = epoch
        self.state = state
    }
}
