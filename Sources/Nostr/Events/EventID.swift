import ErrorCodes
import HexEncoding

extension NostrError.Code {
    public static let invalidEventID = Self("event.invalidID")
}

/// The 32-byte SHA-256 id of an event (NIP-01), ordered by its bytes, which is also the order of
/// its lower-case hex (the tie-break order of NIP-01 and MIP-03).
public struct EventID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) throws(NostrError) {
        guard bytes.count == 32 else { throw NostrError(.invalidEventID, "event id must be 32 bytes, got \(bytes.count)") }
        self.bytes = bytes
    }

    /// Parses 64 lower-case hex characters.
    public init(hex: String) throws(NostrError) {
        bytes = try decodeHex(hex, length: 32, code: .invalidEventID)
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    public var hex: String { bytes.hexString }
    public var description: String { hex }
    public static func < (lhs: EventID, rhs: EventID) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
