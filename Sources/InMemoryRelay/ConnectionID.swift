import Nostr

/// One client connection to a relay; subscriptions and authentication are scoped to it.
public struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// A number unique within one relay.
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "c\(rawValue)" }
}

/// One frame the relay sends, and to which connection.
public struct RelayOutput: Hashable, Sendable {
    /// What kind of frame this is; lets fault rules and tests select frames without re-parsing.
    public enum Meaning: Hashable, Sendable {
        case event(subscription: SubscriptionID, event: Event)
        case ok(eventID: String, accepted: Bool)
        case endOfStoredEvents(SubscriptionID)
        case closed(SubscriptionID)
        case notice
        case auth
        case count(SubscriptionID)
    }

    /// The receiving connection.
    public let connection: ConnectionID
    /// The frame's JSON text.
    public let frame: String
    /// What the frame says.
    public let meaning: Meaning
}
