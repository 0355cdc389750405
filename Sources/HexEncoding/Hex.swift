// Lower-case hexadecimal, the encoding Nostr uses for ids, keys and signatures.
//
// Decoding is strict because hex arrives from untrusted relays: an odd length, a non-hex
// character or (with `.lowercaseOnly`) an upper-case digit is an error value, never a trap.

/// How strict `[UInt8](hex:)` is about letter case.
package enum HexCase: Sendable {
    /// Accept `0-9a-fA-F`.
    case any
    /// Accept only `0-9a-f` (NIP-01 requires lower-case hex for ids, pubkeys and signatures).
    case lowercaseOnly
}

/// Why a string is not valid hex.
package enum HexDecodingError: Error, Equatable, Sendable {
    case oddLength(Int)
    case invalidCharacter(offset: Int)
    case uppercaseCharacter(offset: Int)
}

extension Array where Element == UInt8 {
    /// Decodes hex text into bytes.
    /// - Throws: `HexDecodingError` naming the first offending position.
    package init(hex: some StringProtocol, case letterCase: HexCase = .any) throws(HexDecodingError) {
        let utf8 = [UInt8](hex.utf8)
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

extension Sequence where Element == UInt8 {
    /// The bytes as lower-case hex.
    ///
    /// Inlinable so that callers in other modules get a version specialised for their collection
    /// type: the generic one showed up in relay profiles (event ids and keys are hex-encoded on
    /// every stored event).
    @inlinable
    package var hexString: String {
        // Arrays and slices encode from their own storage; other sequences are gathered first.
        withContiguousStorageIfAvailable(hexEncode) ?? ContiguousArray(self).withUnsafeBufferPointer(hexEncode)
    }
}

/// Lower-case hex of the bytes in `buffer`.
@inlinable
func hexEncode(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: buffer.count * 2) { output in
        var index = 0
        for byte in buffer {
            output[index] = hexDigit(byte >> 4)
            output[index + 1] = hexDigit(byte & 0x0f)
            index += 2
        }
        return index
    }
}

/// The lower-case hex digit of a nibble (0...15).
@inlinable
func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
}
