import Nostr

/// The output of a commit- or proposal-producing operation: the signed kind-445 event to publish and,
/// for additions, one kind-444 welcome rumor per new member. The caller publishes, waits for relay
/// acceptance, merges (`mergePendingCommit`), and only then gift-wraps and sends the welcomes (MIP-02).
public struct GroupEvolution: Hashable, Sendable {
    public let mlsGroupID: MLSGroupID
    public let event: Event
    public let welcomeRumors: [UnsignedEvent]

    public init(mlsGroupID: MLSGroupID, event: Event, welcomeRumors: [UnsignedEvent]) {
        self.mlsGroupID = mlsGroupID
        self.event = event
        self.welcomeRumors = welcomeRumors
    }
}
