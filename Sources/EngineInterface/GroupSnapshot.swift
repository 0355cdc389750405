import Nostr

/// One member's stored view of a group.
public struct GroupSnapshot: Hashable, Sendable {
    /// Membership state as the engine reports it.
    public struct State: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let active = Self(rawValue: "active")
        public static let inactive = Self(rawValue: "inactive")
        public static let pending = Self(rawValue: "pending")
        /// The group was disbanded (current profile: lifecycle component 0x800c): inactive for
        /// every member, the committer included, and terminal (group-lifecycle-v1.md).
        public static let disbanded = Self(rawValue: "disbanded")
        /// Whether the member can no longer act in the group (removed, left, or disbanded).
        public var isEnded: Bool { self == .inactive || self == .disbanded }
    }

    public let mlsGroupID: MLSGroupID
    /// hex of the 32-byte Marmot group id carried in kind-445 `h` tags.
    public let nostrGroupID: String
    public let name: String
    public let description: String
    /// Sorted ascending.
    public let admins: [PublicKey]
    public let epoch: UInt64
    public let state: State
    /// The group image the group data names, nil when none is set.
    public let image: GroupImage?

    public init(
        mlsGroupID: MLSGroupID,
        nostrGroupID: String,
        name: String,
        description: String,
        admins: [PublicKey],
        epoch: UInt64,
        state: State,
        image: GroupImage? = nil
    ) {
        self.mlsGroupID = mlsGroupID
        self.nostrGroupID = nostrGroupID
        self.name = name
        self.description = description
        self.admins = admins.sorted()
        self.epoch = epoch
        self.state = state
        self.image = image
    }
}
