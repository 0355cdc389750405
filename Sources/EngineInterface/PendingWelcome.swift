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

    public init(
        id: EventID,
        wrapperID: EventID,
        mlsGroupID: MLSGroupID,
        groupName: String,
        groupDescription: String,
        groupAdmins: [PublicKey],
        groupRelays: [String],
        welcomer: PublicKey,
        memberCount: Int
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
    }
}
