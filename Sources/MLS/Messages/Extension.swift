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

extension TLSReader {
    /// Reads an `Extension extensions<V>` list. RFC 9420 §13.4: a list MUST NOT hold two
    /// extensions of one type; if it did, two members could read different values (the first
    /// found, or the last) from the same bytes, e.g. two Marmot group data extensions with
    /// different admin lists. Every extension list of every message is read here.
    /// - Throws: `.invalidValue` naming the repeated type.
    public mutating func readExtensions() throws(TLSCodecError) -> [Extension] {
        let extensions = try readVector(of: Extension.self)
        var seen = Set<UInt16>()
        for item in extensions where !seen.insert(item.type).inserted && ReceiverCheck.duplicateExtensions.isOn {
            throw TLSCodecError(
                .invalidValue, "extension type 0x\(String(item.type, radix: 16)) appears twice in one list (RFC 9420 §13.4)")
        }
        return extensions
    }
}

extension Array where Element == Extension {
    /// The data of the first extension of `type`.
    public func data(ofType type: UInt16) -> [UInt8]? { first { $0.type == type }?.data }
}

/// Reads a vector of a closed enum encoded as an unsigned integer, rejecting unknown values.
func unknownValue(_ what: String, _ value: some BinaryInteger) -> TLSCodecError {
    TLSCodecError(.invalidValue, "unknown \(what) \(value)")
}
