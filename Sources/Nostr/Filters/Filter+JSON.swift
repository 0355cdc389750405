// JSON codec for `Filter`. Decoding is strict about the fields NIP-01 defines (types, hex form,
// kind range, single-letter tag names) and ignores keys it does not know, as NIP-01 leaves room
// for extensions (e.g. NIP-50 `search`).

import ErrorCodes

extension NostrError.Code {
    /// The filter is not a JSON object.
    public static let filterNotObject = Self("filter.notObject")
    /// A list field is not an array of the expected element type.
    public static let filterBadList = Self("filter.badList")
    /// An id, author, `#e` or `#p` value is not 64 lower-case hex characters.
    public static let filterBadHex = Self("filter.badHex")
    /// A kind is not an integer in 0...65535.
    public static let filterBadKind = Self("filter.badKind")
    /// `since` or `until` is not a non-negative integer.
    public static let filterBadTimestamp = Self("filter.badTimestamp")
    /// `limit` is not a non-negative integer.
    public static let filterBadLimit = Self("filter.badLimit")
    /// A `#`-key is not `#` followed by one ASCII letter.
    public static let filterBadTagName = Self("filter.badTagName")
}

extension Filter {
    /// Decodes a filter from its JSON object.
    /// - Throws: `NostrError` with a `filter.*` code naming the first offending field.
    public init(jsonValue: JSONValue) throws(NostrError) {
        guard let object = jsonValue.object else {
            throw NostrError(.filterNotObject, "a filter must be a JSON object")
        }
        self.init()
        // Sorted so that the first error reported does not depend on dictionary order.
        for key in object.keys.sorted() {
            guard let value = object[key] else { continue }
            switch key {
            case "ids": ids = try Self.hexList(value, field: key)
            case "authors": authors = try Self.hexList(value, field: key)
            case "kinds": kinds = try Self.kindList(value)
            case "since": since = try Self.timestamp(value, field: key)
            case "until": until = try Self.timestamp(value, field: key)
            case "limit":
                guard let raw = value.uint64 else {
                    throw NostrError(.filterBadLimit, "limit must be a non-negative integer")
                }
                limit = Int(clamping: raw)
            default:
                guard key.hasPrefix("#") else { continue }
                let letter = String(key.dropFirst())
                guard letter.utf8.count == 1, let byte = letter.utf8.first,
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                else {
                    throw NostrError(.filterBadTagName, "tag filter \(key) is not # followed by one letter a-zA-Z")
                }
                // NIP-01: "#e — a list of event ids, for #p — a list of pubkeys".
                tags[letter] =
                    letter == "e" || letter == "p"
                    ? try Self.hexList(value, field: key) : try Self.stringList(value, field: key)
            }
        }
    }

    /// Decodes a filter from JSON text.
    public init(json: String) throws(NostrError) {
        try self.init(jsonValue: JSONValue(parsing: json))
    }

    /// The filter as a JSON object (absent conditions omitted, list values sorted).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [:]
        if let ids { object["ids"] = .array(ids.sorted().map(JSONValue.string)) }
        if let authors { object["authors"] = .array(authors.sorted().map(JSONValue.string)) }
        if let kinds { object["kinds"] = .array(kinds.sorted().map { .number(String($0.rawValue)) }) }
        for (letter, values) in tags { object["#" + letter] = .array(values.sorted().map(JSONValue.string)) }
        if let since { object["since"] = .number(String(since)) }
        if let until { object["until"] = .number(String(until)) }
        if let limit { object["limit"] = .number(String(limit)) }
        return .object(object)
    }

    /// Compact JSON text of `jsonValue`.
    public func json() -> String { jsonValue.serialized() }

    private static func stringList(_ value: JSONValue, field: String) throws(NostrError) -> Set<String> {
        guard let items = value.array else {
            throw NostrError(.filterBadList, "\(field) must be an array of strings")
        }
        var out = Set<String>()
        for item in items {
            guard let text = item.string else {
                throw NostrError(.filterBadList, "\(field) must contain only strings")
            }
            out.insert(text)
        }
        return out
    }

    private static func hexList(_ value: JSONValue, field: String) throws(NostrError) -> Set<String> {
        let values = try stringList(value, field: field)
        for text in values where !isLowercaseHex64(text) {
            throw NostrError(.filterBadHex, "\(field) values must be 64 lower-case hex characters (no prefixes)")
        }
        return values
    }

    private static func kindList(_ value: JSONValue) throws(NostrError) -> Set<Kind> {
        guard let items = value.array else {
            throw NostrError(.filterBadList, "kinds must be an array of integers")
        }
        var out = Set<Kind>()
        for item in items {
            guard let raw = item.uint64, let kind = UInt16(exactly: raw) else {
                throw NostrError(.filterBadKind, "kinds must be integers in 0...65535")
            }
            out.insert(Kind(rawValue: kind))
        }
        return out
    }

    private static func timestamp(_ value: JSONValue, field: String) throws(NostrError) -> UInt64 {
        guard let raw = value.uint64 else {
            throw NostrError(.filterBadTimestamp, "\(field) must be a non-negative integer")
        }
        return raw
    }
}

/// Whether `text` is exactly 64 characters of `0-9a-f`.
func isLowercaseHex64(_ text: String) -> Bool {
    var count = 0
    for byte in text.utf8 {
        count += 1
        guard count <= 64,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        else { return false }
    }
    return count == 64
}
