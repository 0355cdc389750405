// Variable-length integers of RFC 9420 §2.1.2, the length prefix of every MLS vector:
//
//   | prefix | length | usable bits | minimum value |
//   |  0b00  |   1    |      6      |        0      |
//   |  0b01  |   2    |     14      |       64      |
//   |  0b10  |   4    |     30      |    16384      |
//   |  0b11  | invalid                              |
//
// Unlike QUIC, MLS rejects a value encoded in more bytes than it needs, so that every value has
// exactly one encoding and hashes over encodings are unambiguous.

/// Helpers for MLS variable-length integers.
public enum VarInt {
    /// The largest value a variable-length integer can carry (2^30 - 1).
    public static let maximum: UInt32 = (1 << 30) - 1

    /// The number of bytes the minimal encoding of `value` takes, or nil above `maximum`.
    public static func encodedSize(of value: Int) -> Int? {
        switch value {
        case 0..<64: return 1
        case 64..<16384: return 2
        case 16384...Int(maximum): return 4
        default: return nil
        }
    }
}

extension TLSReader {
    /// Reads a minimal variable-length integer.
    /// - Throws: `.truncated`, `.invalidVarintPrefix` or `.nonMinimalVarint`.
    public mutating func readVarint() throws(TLSCodecError) -> UInt32 {
        let first = try readUInt8()
        switch first >> 6 {
        case 0:
            return UInt32(first)
        case 1:
            let value = UInt32(first & 0x3f) << 8 | UInt32(try readUInt8())
            guard value >= 64 else { throw TLSCodecError(.nonMinimalVarint, "2-byte varint \(value) fits in 1 byte") }
            return value
        case 2:
            let rest = try readBytes(3)
            var value = UInt32(first & 0x3f)
            for byte in rest { value = value << 8 | UInt32(byte) }
            guard value >= 16384 else {
                throw TLSCodecError(.nonMinimalVarint, "4-byte varint \(value) fits in 2 bytes")
            }
            return value
        default:
            throw TLSCodecError(.invalidVarintPrefix, "varint prefix 0b11 is reserved (first byte \(first))")
        }
    }
}

extension TLSWriter {
    /// Writes `value` as a minimal variable-length integer; values above `VarInt.maximum` make the
    /// writer fail with `.lengthTooLarge`.
    public mutating func writeVarint(_ value: Int) {
        switch VarInt.encodedSize(of: value) {
        case 1: write(UInt8(value))
        case 2: write(UInt16(value) | 0x4000)
        case 4: write(UInt32(value) | 0x8000_0000)
        default: fail(TLSCodecError(.lengthTooLarge, "length \(value) exceeds 2^30 - 1"))
        }
    }
}
