// Lower-case hexadecimal, the encoding Nostr uses for ids, keys and signatures.
//
// Decoding is strict because hex arrives from untrusted relays: an odd length, a non-hex
// character or (with `.lowercaseOnly`) an upper-case digit is an error value, never a trap.

/// How strict `[UInt8](hex:)` is about letter case.
public enum HexCase: Sendable {
    /// Accept `0-9a-fA-F`.
    case any
    /// Accept only `0-9a-f` (NIP-01 requires lower-case hex for ids, pubkeys and signatures).
    case lowercaseOnly
}

/// Why a string is not valid hex.
public enum HexDecodingError: Error, Equatable, Sendable {
    case oddLength(Int)
    case invalidCharacter(offset: Int)
    case uppercaseCharacter(offset: Int)
}

extension Array where Element == UInt8 {
    /// Decodes hex text into bytes.
    /// - Throws: `HexDecodingError` naming the first offending position.
    public init(hex: some StringProtocol, case letterCase: HexCase = .any) throws(HexDecodingError) {
        let utf8 = Array<UInt8>(hex.utf8)
        guard utf8.count % 2 == 0 else { throw .oddLength(utf8.count) }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            let high = try Self.nibble(utf8[index], at: index, letterCase)
            let low = try Self.nibble(utf8[index + 1], at: index + 1, letterCase)
            out.append(high << 4 | low)
            index += 2
        }
        self = out
    }

    private static func nibble(_ c: UInt8, at offset: Int, _ letterCase: HexCase) throws(HexDecodingError) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"):
            if letterCase == .lowercaseOnly { throw .uppercaseCharacter(offset: offset) }
            return c - UInt8(ascii: "A") + 10
        default: throw .invalidCharacter(offset: offset)
        }
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)

extension Sequence where Element == UInt8 {
    /// The bytes as lower-case hex.
    public var hexString: String {
        var chars = [UInt8]()
        chars.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            chars.append(hexDigits[Int(byte >> 4)])
            chars.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: chars, as: UTF8.self)
    }
}
