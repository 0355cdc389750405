import Nostr

/// A processed but not yet accepted MIP-02 welcome: what an app shows in an invitation prompt.
public struct PendingWelcome: Hashable, Sendable {
    /// The welcome rumor's id; names the welcome in accept and decline.
    public let id: EventID
    public let wrapperID: EventID
    public let mlsGroupID: MLSGroupID
    public let groupName: String
    public let groupDescription: String
    /// Sorted ascending.
    public let groupAdmins: [PublicKey]
    public let groupRelays: [String]
    public let welcomer: PublicKey
    public let memberCount: Int
    /// The KeyPackageRef (hex) of our key package the Welcome was opened with, when the engine
    /// says (ours does; a driver that does not leaves it nil). The app core compares it with the
    /// rumor's `e` tag (issue 30, N12). Not part of an engine's persisted state: nil after a restart.
    public var keyPackageRef: String?

    public init(
        id: EventID,
        wrapperID: EventID,
        mlsGroupID: MLSGroupID,
        groupName: String,
        groupDescription: String,
        groupAdmins: [PublicKey],
        groupRelays: [String],
        welcomer: PublicKey,
        memberCount: Int,
        keyPackageRef: String? = nil
    ) {
        self.id = id
        self.wrapperID = wrapperID
        self.mlsGroupID = mlsGroupID
        self.groupName = groupName
        self.groupDescription = groupDescription
        self.groupAdmins = groupAdmins.sorted()
        self.groupRelays = groupRelays
        self.welcomer = welcomer
        self.memberCount = memberCount
        self.keyPackageRef = keyPackageRef
    }
}
