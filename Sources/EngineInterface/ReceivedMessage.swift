import Nostr

/// An application message as stored by an engine: the authenticated inner rumor and its wrapper's id.
package struct ReceivedMessage: Hashable, Sendable {
    package let mlsGroupID: MLSGroupID
    /// The inner rumor (its `pubkey` has been checked against the MLS sender by the engine).
    package let rumor: UnsignedEvent
    /// The id of the kind-445 event that carried it.
    package let wrapperID: EventID
    /// The MLS sender's Nostr identity.
    package let sender: PublicKey

    package init(mlsGroupID: MLSGroupID, rumor: UnsignedEvent, wrapperID: EventID, sender: PublicKey) {
        self.mlsGroupID = mlsGroupID
        self.rumor = rumor
        self.wrapperID = wrapperID
        self.sender = sender
    }
}
