// A JSON value with a strict RFC 8259 parser and two serializers.
//
// We parse JSON ourselves rather than with Foundation because relay frames and events are
// untrusted: we need typed errors with byte offsets, a nesting limit, rejection of duplicate
// object keys and lone surrogates, and numbers kept as their literal text so that `1` and
// `1.0` (a non-integer kind) stay distinguishable.

import ErrorCodes

extension NostrError.Code {
    public static let jsonSyntax = Self("json.syntax")
    public static let jsonTooDeep = Self("json.tooDeep")
    public static let jsonDuplicateKey = Self("json.duplicateKey")
    public static let jsonInvalidString = Self("json.invalidString")
    public static let jsonTrailingData = Self("json.trailingData")
}

/// A parsed JSON document.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number's literal text, exactly as it appeared (validated against the RFC 8259 grammar).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The deepest nesting of arrays and objects the parser accepts.
    public static let maximumDepth = 64

    /// Parses a complete JSON text.
    /// - Throws: `NostrError` with a `json.*` code and the byte offset of the problem.
    public init(parsing text: String) throws(NostrError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Parses a complete JSON text given as UTF-8 bytes.
    public init(parsing bytes: [UInt8]) throws(NostrError) {
        var parser = JSONParser(bytes: bytes)
        self = try parser.parseDocument()
    }

    public init(_ integer: some BinaryInteger) { self = .number(String(integer)) }

    // MARK: - Accessors

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// The value as a signed 64-bit integer, when it is a number written as an integer literal in range.
    public var int64: Int64? { if case .number(let text) = self { Int64(text) } else { nil } }
    /// The value as an unsigned 64-bit integer, when it is a non-negative integer literal in range.
    public var uint64: UInt64? { if case .number(let text) = self { UInt64(text) } else { nil } }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

// MARK: - Parser

/// The recursive-descent parser (strings and escapes are in JSONValue+Strings.swift).
struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(NostrError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw NostrError(.jsonTrailingData, "unexpected data after the JSON value at byte \(index)")
        }
        return value
    }

    func fail(_ what: String) -> NostrError {
        NostrError(.jsonSyntax, index < bytes.count ? "\(what) at byte \(index)" : "\(what): unexpected end of input")
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(NostrError) -> JSONValue {
        guard index < bytes.count else { throw fail("expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("expected a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(NostrError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("truncated literal") }
        let matches = literal.withUTF8Buffer { buffer in
            buffer.elementsEqual(bytes[index..<index + count])
        }
        guard matches else { throw fail("invalid literal") }
        index += count
    }

    mutating func enter() throws(NostrError) {
        depth += 1
        if depth > JSONValue.maximumDepth {
            throw NostrError(.jsonTooDeep, "nesting deeper than \(JSONValue.maximumDepth) at byte \(index)")
        }
    }

    mutating func parseArray() throws(NostrError) -> JSONValue {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            } else {
                throw fail("expected ',' or ']'")
            }
        }
    }

    mutating func parseObject() throws(NostrError) -> JSONValue {
        try enter()
        index += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            // Two values for one key make the document ambiguous: peers may read either one.
            guard members.updateValue(value, forKey: key) == nil else {
                throw NostrError(.jsonDuplicateKey, "duplicate key \"\(key)\" at byte \(keyOffset)")
            }
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    mutating func parseNumber() throws(NostrError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected an exponent digit") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
