import TLSCodec

// struct {
//     ExtensionType extension_type;
//     opaque extension_data<V>;
// } Extension;
/// A typed extension; the data stays opaque so unknown (and GREASE) types pass through untouched.
public struct Extension: TLSCodable, Hashable, Sendable {
    public var type: UInt16
    public var data: [UInt8]

    public init(type: UInt16, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    public func encode(to writer: inout TLSWriter) {
        writer.write(type)
        writer.writeOpaque(data)
    }

    public init(from reader: inout TLSReader) throws(TLSCodecError) {
        type = try reader.readUInt16()
        data = try reader.readOpaque()
    }
}

/// Extension types of RFC 9420 §17.3 that this implementation interprets.
public enum ExtensionType {
    public static let applicationID: UInt16 = 0x0001
    public static let ratchetTree: UInt16 = 0x0002
    public static let requiredCapabilities: UInt16 = 0x0003
    public static let externalPub: UInt16 = 0x0004
    public static let externalSenders: UInt16 = 0x0005
    /// last_resort, from the MLS extensions draft.
    public static let lastResort: UInt16 = 0x000a
    /// The types every implementation supports without advertising them (§7.2).
    public static let defaults: Set<UInt16> = [1, 2, 3, 4, 5]
}

extension Array where Element == Extension {
    /// The data of the first extension of `type`.
    public func data(ofType type: UInt16) -> [UInt8]? { first { $0.type == type }?.data }
}

/// Reads a vector of a closed enum encoded as an unsigned integer, rejecting unknown values.
func unknownValue(_ what: String, _ value: some BinaryInteger) -> TLSCodecError {
    TLSCodecError(.invalidValue, "unknown \(what) \(value)")
}
