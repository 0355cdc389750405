// NIP-01 (and NIP-42, NIP-45) messages from a client to a relay:
//
//   ["EVENT", <event JSON as defined above>]
//   ["REQ", <subscription_id>, <filters1>, <filters2>, ...]
//   ["CLOSE", <subscription_id>]
//   ["AUTH", <signed event of kind 22242>]                       (NIP-42)
//   ["COUNT", <subscription_id>, <filters1>, <filters2>, ...]    (NIP-45)

import ErrorCodes

extension NostrError.Code {
    /// The frame is larger than the decoder accepts.
    public static let messageOversize = Self("message.oversize")
    /// The frame is not valid JSON.
    public static let messageNotJSON = Self("message.notJSON")
    /// The frame is JSON but not an array whose first element is a string verb.
    public static let messageNotArray = Self("message.notArray")
    /// The verb is not one this side of the protocol understands.
    public static let messageUnknownVerb = Self("message.unknownVerb")
    /// The array has the wrong number of elements for its verb.
    public static let messageWrongArity = Self("message.wrongArity")
    /// An element has the wrong JSON type.
    public static let messageBadType = Self("message.badType")
    /// A subscription id breaks NIP-01 (empty or longer than 64 characters).
    public static let badSubscriptionID = Self("message.badSubscriptionID")
}

/// A message a client sends to a relay.
public enum ClientMessage: Hashable, Sendable {
    /// Publish a (verified) event.
    case event(Event)
    /// Open or replace a subscription with one or more filters.
    case request(subscription: SubscriptionID, filters: [Filter])
    /// End a subscription.
    case close(SubscriptionID)
    /// Answer a NIP-42 challenge with a signed kind-22242 event.
    case auth(Event)
    /// Ask for the number of matching events (NIP-45).
    case count(subscription: SubscriptionID, filters: [Filter])

    /// Default upper bound on a frame's size in bytes: NIP-11's common `max_message_length`.
    public static let defaultMaximumBytes = 131_072

    /// Decodes and validates a frame; events are checked for id and signature.
    /// - Throws: `NostrError` with a `message.*`, `filter.*` or event code.
    public init(json text: String, maximumBytes: Int = ClientMessage.defaultMaximumBytes) throws(NostrError) {
        try self.init(jsonValue: FrameShape.parse(text, maximumBytes: maximumBytes))
    }

    /// Decodes and validates an already parsed frame.
    public init(jsonValue: JSONValue) throws(NostrError) {
        let (verb, items) = try FrameShape.split(jsonValue)
        switch verb {
        case "EVENT":
            try FrameShape.requireCount(items, 2, verb)
            self = .event(try Event(jsonValue: items[1]))
        case "AUTH":
            try FrameShape.requireCount(items, 2, verb)
            self = .auth(try Event(jsonValue: items[1]))
        case "REQ", "COUNT":
            guard items.count >= 3 else {
                throw NostrError(.messageWrongArity, "\(verb) needs a subscription id and at least one filter")
            }
            let subscription = try FrameShape.subscription(items[1], verb)
            var filters: [Filter] = []
            for item in items.dropFirst(2) { filters.append(try Filter(jsonValue: item)) }
            self =
                verb == "REQ"
                ? .request(subscription: subscription, filters: filters)
                : .count(subscription: subscription, filters: filters)
        case "CLOSE":
            try FrameShape.requireCount(items, 2, verb)
            self = .close(try FrameShape.subscription(items[1], verb))
        default:
            throw NostrError(.messageUnknownVerb, "unknown client message \(verb)")
        }
    }

    /// The frame as a JSON array.
    public var jsonValue: JSONValue {
        switch self {
        case .event(let event): .array([.string("EVENT"), event.jsonValue])
        case .auth(let event): .array([.string("AUTH"), event.jsonValue])
        case .request(let subscription, let filters):
            .array([.string("REQ"), .string(subscription.rawValue)] + filters.map(\.jsonValue))
        case .count(let subscription, let filters):
            .array([.string("COUNT"), .string(subscription.rawValue)] + filters.map(\.jsonValue))
        case .close(let subscription): .array([.string("CLOSE"), .string(subscription.rawValue)])
        }
    }

    /// Compact JSON text of the frame.
    public func json() -> String { jsonValue.serialized() }
}

/// Shared shape checks for both directions of frames.
enum FrameShape {
    /// Parses a frame's text, refusing it unread when it is larger than `maximumBytes`.
    static func parse(_ text: String, maximumBytes: Int) throws(NostrError) -> JSONValue {
        guard text.utf8.count <= maximumBytes else {
            throw NostrError(.messageOversize, "frame of \(text.utf8.count) bytes exceeds \(maximumBytes)")
        }
        do { return try JSONValue(parsing: text) } catch {
            throw NostrError(.messageNotJSON, "not JSON: \(error.reason)")
        }
    }

    static func split(_ value: JSONValue) throws(NostrError) -> (String, [JSONValue]) {
        guard let items = value.array, let verb = items.first?.string else {
            throw NostrError(.messageNotArray, "a frame must be a JSON array starting with a string verb")
        }
        return (verb, items)
    }

    static func requireCount(_ items: [JSONValue], _ count: Int, _ verb: String) throws(NostrError) {
        guard items.count == count else {
            throw NostrError(.messageWrongArity, "\(verb) takes \(count) elements, got \(items.count)")
        }
    }

    static func string(_ value: JSONValue, _ what: String) throws(NostrError) -> String {
        guard let text = value.string else { throw NostrError(.messageBadType, "\(what) must be a string") }
        return text
    }

    static func subscription(_ value: JSONValue, _ verb: String) throws(NostrError) -> SubscriptionID {
        let id = SubscriptionID(try string(value, "\(verb) subscription id"))
        try id.validate()
        return id
    }
}
