import Nostr

/// A processed but not yet accepted MIP-02 welcome: what an app shows in an invitation prompt.
package struct PendingWelcome: Hashable, Sendable {
    /// The welcome rumor's id; names the welcome in accept and decline.
    package let id: EventID
    package let wrapperID: EventID
    package let mlsGroupID: MLSGroupID
    package let groupName: String
    package let groupDescription: String
    /// Sorted ascending.
    package let groupAdmins: [PublicKey]
    package let groupRelays: [String]
    package let welcomer: PublicKey
    package let memberCount: Int

    package init(
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
