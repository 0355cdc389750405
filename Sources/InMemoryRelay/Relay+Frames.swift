import Nostr

// Builders for outgoing frames, each paired with its `RelayOutput.Meaning`.
extension Relay {
    func ok(_ eventID: String, accepted: Bool, _ message: String, to connection: ConnectionID) -> RelayOutput {
        RelayOutput(
            connection: connection,
            frame: RelayMessage.ok(eventID: eventID, accepted: accepted, message: message).json(),
            meaning: .ok(eventID: eventID, accepted: accepted)
        )
    }

    func notice(_ message: String, to connection: ConnectionID) -> RelayOutput {
        RelayOutput(connection: connection, frame: RelayMessage.notice(message).json(), meaning: .notice)
    }

    func closed(_ id: SubscriptionID, _ message: String, to connection: ConnectionID) -> RelayOutput {
        RelayOutput(
            connection: connection,
            frame: RelayMessage.closed(subscription: id, message: message).json(),
            meaning: .closed(id)
        )
    }

    func endOfStoredEvents(_ id: SubscriptionID, to connection: ConnectionID) -> RelayOutput {
        RelayOutput(connection: connection, frame: RelayMessage.endOfStoredEvents(id).json(), meaning: .endOfStoredEvents(id))
    }

    func eventFrame(_ stored: StoredEvent, for key: SubscriptionKey) -> RelayOutput {
        RelayOutput(
            connection: key.connection,
            frame: RelayMessage.eventFrame(subscription: key.id, eventJSON: stored.json),
            meaning: .event(subscription: key.id, event: stored.event)
        )
    }

    mutating func authChallenge(to connection: ConnectionID) -> RelayOutput {
        RelayOutput(
            connection: connection,
            frame: RelayMessage.auth(challenge: challenge(for: connection)).json(),
            meaning: .auth
        )
    }
}
