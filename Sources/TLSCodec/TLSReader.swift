// A cursor over untrusted bytes in the TLS presentation language (RFC 8446 §3) with the
// MLS conventions of RFC 9420 §2.1: big-endian integers, varint-prefixed vectors, and
// optionals introduced by a presence byte.

/// Reads TLS-encoded values from the front of a byte slice; every read either consumes exactly
/// the bytes of one value or throws, leaving no partial state worth inspecting.
public struct TLSReader: Sendable {
    /// The bytes not yet read.
    public private(set) var remaining: ArraySlice<UInt8>

    public init(_ bytes: ArraySlice<UInt8>) { remaining = bytes }
    public init(_ bytes: [UInt8]) { remaining = bytes[...] }

    /// True when every byte has been consumed.
    public var isAtEnd: Bool { remaining.isEmpty }

    /// Consumes `count` bytes.
    /// - Throws: `.truncated` when fewer are left.
    public mutating func readBytes(_ count: Int) throws(TLSCodecError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining.count >= count else {
            throw TLSCodecError(.truncated, "needed \(count) bytes, \(remaining.count) left")
        }
        let start = remaining.startIndex
        let slice = remaining[start..<start + count]
        remaining = remaining[(start + count)...]
        return slice
    }

    /// Reads a big-endian fixed-width unsigned integer.
    public mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(
        _: T.Type = T.self
    ) throws(TLSCodecError) -> T {
        let bytes = try readBytes(T.bitWidth / 8)
        var value: T = 0
        for byte in bytes { value = value << 8 | T(byte) }
        return value
    }

    public mutating func readUInt8() throws(TLSCodecError) -> UInt8 { try readInteger() }
    public mutating func readUInt16() throws(TLSCodecError) -> UInt16 { try readInteger() }
    public mutating func readUInt32() throws(TLSCodecError) -> UInt32 { try readInteger() }
    public mutating func readUInt64() throws(TLSCodecError) -> UInt64 { try readInteger() }

    /// Reads `opaque data<V>`: a varint length followed by that many bytes.
    public mutating func readOpaque() throws(TLSCodecError) -> [UInt8] {
        let length = try readVarint()
        return Array(try readBytes(Int(length)))
    }

    /// Reads `T items<V>`: a varint byte length, then elements decoded by `element` until the
    /// length is used up exactly.
    public mutating func readVector<T>(
        _ element: (inout TLSReader) throws(TLSCodecError) -> T
    ) throws(TLSCodecError) -> [T] {
        let length = try readVarint()
        var inner = TLSReader(try readBytes(Int(length)))
        var items: [T] = []
        while !inner.isAtEnd { items.append(try element(&inner)) }
        return items
    }

    /// Reads a vector of `TLSDecodable` elements.
    public mutating func readVector<T: TLSDecodable>(of _: T.Type) throws(TLSCodecError) -> [T] {
        try readVector { (r: inout TLSReader) throws(TLSCodecError) in try T(from: &r) }
    }

    /// Reads `optional<T>`: a presence byte that must be 0 or 1, then the value when present.
    public mutating func readOptional<T>(
        _ value: (inout TLSReader) throws(TLSCodecError) -> T
    ) throws(TLSCodecError) -> T? {
        switch try readUInt8() {
        case 0: return nil
        case 1: return try value(&self)
        case let other: throw TLSCodecError(.invalidOptional, "presence byte \(other) is not 0 or 1")
        }
    }

    /// Reads an optional `TLSDecodable` value.
    public mutating func readOptional<T: TLSDecodable>(of _: T.Type) throws(TLSCodecError) -> T? {
        try readOptional { (r: inout TLSReader) throws(TLSCodecError) in try T(from: &r) }
    }

    /// Decodes one value.
    public mutating func read<T: TLSDecodable>(_: T.Type = T.self) throws(TLSCodecError) -> T {
        try T(from: &self)
    }

    /// Throws unless every byte has been consumed; call after the top-level value.
    public func finish() throws(TLSCodecError) {
        guard isAtEnd else { throw TLSCodecError(.trailingBytes, "\(remaining.count) bytes after the value") }
    }
}
