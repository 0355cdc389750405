// When a client frame fails to decode, the relay should still answer on the channel the client is
// waiting on: NIP-01 says OK "MUST be sent in response to EVENT", and CLOSED is the answer to a
// refused REQ. This lenient reader recovers the verb, subscription id and event id that a
// malformed frame still carries, without ever throwing.

/// The parts of an undecodable client frame that a relay can still echo back.
public struct MalformedFrameHint: Hashable, Sendable {
    /// The first element, when it is a string.
    public var verb: String?
    /// The second element of REQ / CLOSE / COUNT, when it is a string.
    public var subscription: String?
    /// The `id` of the event in EVENT / AUTH, when it is 64 hex digits (any case).
    public var eventID: String?

    /// Reads what it can from `text`; frames over `maximumBytes` are not parsed at all.
    public init(json text: String, maximumBytes: Int = ClientMessage.defaultMaximumBytes) {
        guard text.utf8.count <= maximumBytes, let value = try? JSONValue(parsing: text) else {
            self.init(jsonValue: .null)
            return
        }
        self.init(jsonValue: value)
    }

    /// Reads what it can from an already parsed frame.
    public init(jsonValue: JSONValue) {
        guard let items = jsonValue.array, let verb = items.first?.string else { return }
        self.verb = verb
        guard items.count >= 2 else { return }
        switch verb {
        case "REQ", "CLOSE", "COUNT": subscription = items[1].string
        case "EVENT", "AUTH":
            if let id = items[1].object?["id"]?.string, id.utf8.count == 64, id.utf8.allSatisfy(\.isHexDigit) {
                eventID = id
            }
        default: break
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
