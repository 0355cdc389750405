// How Nostr values are stored by an app core that persists its state (docs/core-state-format.md):
// each in its wire form (NIP-01), so that a stored value reads like the protocol's and decoding
// checks it as the wire decoder does. A value that fails its check is a `DecodingError` naming why.

extension PublicKey: Codable {
    /// 64 lower-case hex characters, validated as a curve point.
    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeWireText { text throws(NostrError) in try PublicKey(hex: text) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

extension EventID: Codable {
    /// 64 lower-case hex characters.
    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeWireText { text throws(NostrError) in try EventID(hex: text) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

extension Event: Codable {
    /// The event's NIP-01 JSON text; decoding verifies its id and signature, as from a relay.
    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeWireText { text throws(NostrError) in try Event(json: text) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(json())
    }
}

extension Decoder {
    /// A value stored as one string in its wire form, read by the wire parser `parse`; what the
    /// parser refuses is a `DecodingError` carrying its reason.
    func decodeWireText<Value>(_ parse: (String) throws(NostrError) -> Value) throws -> Value {
        let container = try singleValueContainer()
        do {
            return try parse(try container.decode(String.self))
        } catch let error as NostrError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }
}
