// NIP-01 (and NIP-42, NIP-45) messages from a relay to a client:
//
//   ["EVENT", <subscription_id>, <event JSON as defined above>]
//   ["OK", <event_id>, <true|false>, <message>]
//   ["EOSE", <subscription_id>]
//   ["CLOSED", <subscription_id>, <message>]
//   ["NOTICE", <message>]
//   ["AUTH", <challenge-string>]                                 (NIP-42)
//   ["COUNT", <subscription_id>, {"count": <integer>}]           (NIP-45)

/// A message a relay sends to a client.
public enum RelayMessage: Hashable, Sendable {
    /// A stored or live event for a subscription.
    case event(subscription: SubscriptionID, event: Event)
    /// The verdict on a published event. `eventID` is text because relays echo malformed ids.
    case ok(eventID: String, accepted: Bool, message: String)
    /// End of stored events: what follows on this subscription is live.
    case endOfStoredEvents(SubscriptionID)
    /// The relay refused or ended a subscription.
    case closed(subscription: SubscriptionID, message: String)
    /// Free-form information.
    case notice(String)
    /// A NIP-42 challenge.
    case auth(challenge: String)
    /// A NIP-45 count.
    case count(subscription: SubscriptionID, count: UInt64)

    /// Decodes a frame; events are checked for id and signature, as a client must.
    /// - Throws: `NostrError` with a `message.*` or event code.
    public init(json text: String, maximumBytes: Int = .max) throws(NostrError) {
        try self.init(jsonValue: FrameShape.parse(text, maximumBytes: maximumBytes))
    }

    /// Decodes an already parsed frame.
    public init(jsonValue: JSONValue) throws(NostrError) {
        let (verb, items) = try FrameShape.split(jsonValue)
        switch verb {
        case "EVENT":
            try FrameShape.requireCount(items, 3, verb)
            let subscription = SubscriptionID(try FrameShape.string(items[1], "EVENT subscription id"))
            self = .event(subscription: subscription, event: try Event(jsonValue: items[2]))
        case "OK":
            try FrameShape.requireCount(items, 4, verb)
            guard case .bool(let accepted) = items[2] else {
                throw NostrError(.messageBadType, "OK status must be a boolean")
            }
            self = .ok(
                eventID: try FrameShape.string(items[1], "OK event id"),
                accepted: accepted,
                message: try FrameShape.string(items[3], "OK message")
            )
        case "EOSE":
            try FrameShape.requireCount(items, 2, verb)
            self = .endOfStoredEvents(SubscriptionID(try FrameShape.string(items[1], "EOSE subscription id")))
        case "CLOSED":
            try FrameShape.requireCount(items, 3, verb)
            self = .closed(
                subscription: SubscriptionID(try FrameShape.string(items[1], "CLOSED subscription id")),
                message: try FrameShape.string(items[2], "CLOSED message")
            )
        case "NOTICE":
            try FrameShape.requireCount(items, 2, verb)
            self = .notice(try FrameShape.string(items[1], "NOTICE message"))
        case "AUTH":
            try FrameShape.requireCount(items, 2, verb)
            self = .auth(challenge: try FrameShape.string(items[1], "AUTH challenge"))
        case "COUNT":
            try FrameShape.requireCount(items, 3, verb)
            guard let count = items[2].object?["count"]?.uint64 else {
                throw NostrError(.messageBadType, "COUNT result must be an object with an integer count")
            }
            self = .count(subscription: SubscriptionID(try FrameShape.string(items[1], "COUNT subscription id")), count: count)
        default:
            throw NostrError(.messageUnknownVerb, "unknown relay message \(verb)")
        }
    }

    /// The frame as a JSON array.
    public var jsonValue: JSONValue {
        switch self {
        case .event(let subscription, let event): .array([.string("EVENT"), .string(subscription.rawValue), event.jsonValue])
        case .ok(let id, let accepted, let message): .array([.string("OK"), .string(id), .bool(accepted), .string(message)])
        case .endOfStoredEvents(let subscription): .array([.string("EOSE"), .string(subscription.rawValue)])
        case .closed(let subscription, let message):
            .array([.string("CLOSED"), .string(subscription.rawValue), .string(message)])
        case .notice(let message): .array([.string("NOTICE"), .string(message)])
        case .auth(let challenge): .array([.string("AUTH"), .string(challenge)])
        case .count(let subscription, let count):
            .array([.string("COUNT"), .string(subscription.rawValue), .object(["count": .number(String(count))])])
        }
    }

    /// Compact JSON text of the frame.
    public func json() -> String { jsonValue.serialized() }

    /// The text of `["EVENT", subscription, event]` from an event's already serialized JSON, so a
    /// relay fanning one event out to many subscriptions serializes the event once.
    public static func eventFrame(subscription: SubscriptionID, eventJSON: String) -> String {
        "[\"EVENT\"," + JSONValue.string(subscription.rawValue).serialized() + "," + eventJSON + "]"
    }
}
