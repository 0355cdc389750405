import Nostr

/// The output of a commit- or proposal-producing operation: the signed kind-445 event to publish and,
/// for additions, one kind-444 welcome rumor per new member. The caller publishes, waits for relay
/// acceptance, merges (`mergePendingCommit`), and only then gift-wraps and sends the welcomes (MIP-02).
package struct GroupEvolution: Hashable, Sendable {
    package let mlsGroupID: MLSGroupID
    package let event: Event
    package let welcomeRumors: [UnsignedEvent]

    package init(mlsGroupID: MLSGroupID, event: Event, welcomeRumors: [UnsignedEvent]) {
        self.mlsGroupID = mlsGroupID
        self.event = event
        self.welcomeRumors = welcomeRumors
    }
}
