// A frame's outline, read without verifying anything, for the places that must look at a frame
// that the strict decoders (`RelayMessage(json:)`, `ClientMessage(json:)`) refuse or do not need:
// saying why an EVENT failed verification, or matching a fault rule on a frame in flight.
//
//     relay → client:  ["EVENT", <subscription_id>, <event JSON>]
//     client → relay:  ["EVENT", <event JSON>]
//     any other frame: [<verb>, …]

/// The verb and items of a JSON array frame; nil for anything else.
public struct FrameOutline: Sendable {
    /// The first item, e.g. `EVENT`, `OK`, `REQ`.
    public let verb: String
    /// Every item, the verb included.
    public let items: [JSONValue]

    /// Reads `frame` as a JSON array whose first item is a string; nil otherwise.
    public init?(_ frame: String) {
        guard let items = (try? JSONValue(parsing: frame))?.array, let verb = items.first?.string else { return nil }
        self.verb = verb
        self.items = items
    }

    /// The subscription id of a relay's `["EVENT", sub, event]`.
    public var subscription: String? {
        verb == "EVENT" && items.count == 3 ? items[1].string : nil
    }

    /// The event object of an EVENT frame in either direction (its JSON, unchecked).
    public var eventObject: [String: JSONValue]? {
        guard verb == "EVENT", items.count == 2 || items.count == 3 else { return nil }
        return items[items.count - 1].object
    }

    /// The event of an EVENT frame in either direction, decoded without checking id or signature.
    public var unverifiedEvent: Event? {
        guard verb == "EVENT", items.count == 2 || items.count == 3 else { return nil }
        return try? Event.decodeUnverified(items[items.count - 1])
    }
}
