import Nostr

extension Relay {
    /// The EVENT frames a relay that skips every check (no id or signature verification, no
    /// storage) would send `connection` for `event`: one per live subscription of that connection
    /// whose filters match. A world uses it to hand a forged or corrupted event to one member.
    package func liveEventFrames(for event: Event, to connection: ConnectionID) -> [RelayOutput] {
        let stored = StoredEvent(event)
        return subscriptions.matching(stored).filter { $0.connection == connection }.map { eventFrame(stored, for: $0) }
    }
}
