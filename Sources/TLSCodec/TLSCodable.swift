// The protocols every wire struct adopts, and the top-level entry points that enforce
// "no trailing bytes" (RFC 9420 §2.1).

/// A value with a TLS presentation-language encoding.
public protocol TLSEncodable {
    /// Appends this value's encoding to `writer`.
    func encode(to writer: inout TLSWriter)
}

/// A value decodable from the TLS presentation language.
public protocol TLSDecodable {
    /// Reads one value from the front of `reader`.
    /// - Throws: `TLSCodecError` for malformed input; never traps.
    init(from reader: inout TLSReader) throws(TLSCodecError)
}

/// Both directions.
public typealias TLSCodable = TLSEncodable & TLSDecodable

extension TLSEncodable {
    /// This value's complete encoding.
    /// - Throws: `.lengthTooLarge` when a vector exceeds 2^30 - 1 bytes.
    public func tlsSerialized() throws(TLSCodecError) -> [UInt8] {
        var writer = TLSWriter()
        encode(to: &writer)
        if let failure = writer.failure { throw failure }
        return writer.bytes
    }
}

extension TLSDecodable {
    /// Decodes a value that must span `bytes` exactly.
    /// - Throws: any decoding error, or `.trailingBytes` when bytes remain.
    public init(tlsBytes bytes: some Collection<UInt8>) throws(TLSCodecError) {
        var reader = TLSReader(ArraySlice(bytes))
        self = try Self(from: &reader)
        try reader.finish()
    }
}

/// Big-endian fixed-width integers (`uint8` … `uint64`) encode as themselves.
public protocol TLSInteger: FixedWidthInteger, UnsignedInteger, TLSCodable {}

extension TLSInteger {
    public func encode(to writer: inout TLSWriter) { writer.write(self) }
    public init(from reader: inout TLSReader) throws(TLSCodecError) { self = try reader.readInteger() }
}

extension UInt8: TLSInteger {}
extension UInt16: TLSInteger {}
extension UInt32: TLSInteger {}
extension UInt64: TLSInteger {}
