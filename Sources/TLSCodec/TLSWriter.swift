// Builds TLS-encoded bytes. Writing cannot fail except for a vector longer than a varint can
// describe (2^30 - 1 bytes); rather than make every `encode` throw for that, the writer keeps the
// first such failure and `TLSEncodable.tlsSerialized()` reports it.

/// Appends TLS-encoded values to a byte array.
public struct TLSWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    /// The first failure, if any; once set, the bytes are not a valid encoding.
    public private(set) var failure: TLSCodecError?

    public init() {}

    /// Appends a big-endian fixed-width integer.
    public mutating func write<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        var shift = T.bitWidth
        while shift > 0 {
            shift -= 8
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    /// Appends raw bytes with no length prefix (fixed-size fields).
    public mutating func writeBytes(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Appends `opaque data<V>`: the minimal varint length, then the bytes.
    public mutating func writeOpaque(_ raw: some Collection<UInt8>) {
        writeVarint(raw.count)
        bytes.append(contentsOf: raw)
    }

    /// Appends a vector whose body is written by `body`: the body is written first into a
    /// separate writer so its size is known, then prefixed by its minimal varint length.
    public mutating func writeVector(_ body: (inout TLSWriter) -> Void) {
        var inner = TLSWriter()
        body(&inner)
        if let innerFailure = inner.failure { fail(innerFailure) }
        writeOpaque(inner.bytes)
    }

    /// Appends a vector of encodable elements.
    public mutating func writeVector(_ items: some Sequence<some TLSEncodable>) {
        writeVector { w in for item in items { item.encode(to: &w) } }
    }

    /// Appends `optional<T>`: presence byte 0, or 1 followed by the value.
    public mutating func writeOptional<T>(_ value: T?, _ body: (inout TLSWriter, T) -> Void) {
        if let value {
            write(UInt8(1))
            body(&self, value)
        } else {
            write(UInt8(0))
        }
    }

    /// Appends an optional encodable value.
    public mutating func writeOptional(_ value: (some TLSEncodable)?) {
        writeOptional(value) { w, v in v.encode(to: &w) }
    }

    /// Appends an encodable value.
    public mutating func write(_ value: some TLSEncodable) { value.encode(to: &self) }

    /// Records a failure; the first one wins.
    public mutating func fail(_ error: TLSCodecError) {
        if failure == nil { failure = error }
    }
}
