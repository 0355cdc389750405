import Nostr

/// One client connection to a relay; subscriptions and authentication are scoped to it.
package struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// A number unique within one relay.
    package let rawValue: UInt64
    package init(_ rawValue: UInt64) { self.rawValue = rawValue }
    package static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }
    package var description: String { "c\(rawValue)" }
}

/// One frame the relay sends, and to which connection.
package struct RelayOutput: Hashable, Sendable {
    /// What kind of frame this is; lets fault rules and tests select frames without re-parsing.
    package enum Meaning: Hashable, Sendable {
        case event(subscription: SubscriptionID, event: Event)
        case ok(eventID: String, accepted: Bool)
        case endOfStoredEvents(SubscriptionID)
        case closed(SubscriptionID)
        case notice
        case auth
        case count(SubscriptionID)
    }

    /// The receiving connection.
    package let connection: ConnectionID
    /// The frame's JSON text.
    package let frame: String
    /// What the frame says.
    package let meaning: Meaning

    package init(connection: ConnectionID, frame: String, meaning: Meaning) {
        self.connection = connection
        self.frame = frame
        self.meaning = meaning
    }
}
