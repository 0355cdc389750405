/// What we publish and receive on the relays, beyond the catch-ups (Relays/CatchUpBook.swift).
struct Traffic: Sendable {
    /// Our publishes waiting for their relays' answers, by event id.
    var publishes: [String: PublishPurpose] = [:]
    /// Publishes waiting for their relays' OKs, by event id (Relays/GroupCore+Acknowledgements.swift).
    var acknowledgementWatches: [String: AcknowledgementWatch] = [:]
    var nextAcknowledgementToken: UInt64 = 0
    /// Chat messages waiting for a relay that could not be reached.
    var outbox = Outbox()
    /// Ids of events already handled (received or our own), so that duplicates are ignored;
    /// bounded, the oldest forgotten first (Relays/SeenEvents.swift).
    var seenEvents = SeenEvents()
    /// Lost relays we are trying to resubscribe to, by attempts so far.
    var reconnectAttempts: [String: Int] = [:]
}
