import Nostr

/// An application message as stored by an engine: the authenticated inner rumor and its wrapper's id.
public struct ReceivedMessage: Hashable, Sendable {
    public let mlsGroupID: MLSGroupID
    /// The inner rumor (its `pubkey` has been checked against the MLS sender by the engine).
    public let rumor: UnsignedEvent
    /// The id of the kind-445 event that carried it.
    public let wrapperID: EventID
    /// The MLS sender's Nostr identity.
    public let sender: PublicKey

    public init(mlsGroupID: MLSGroupID, rumor: UnsignedEvent, wrapperID: EventID, sender: PublicKey) {
        self.mlsGroupID = mlsGroupID
        self.rumor = rumor
        self.wrapperID = wrapperID
        self.sender = sender
    }
}
