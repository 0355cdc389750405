// Standard base64 (RFC 4648 §4) with mandatory `=` padding and canonical trailing bits: the one
// base64 codec of the project (NIP-44 payloads, Marmot's base64 contents).
//
// Strict on purpose: payloads come from untrusted peers, and accepting two spellings of one payload
// (missing padding, stray bits, whitespace) would let peers disagree on validity. MDK's Rust decoder
// is strict the same way (no trailing bits, padding required).

/// Why a text is not strict padded base64; `reason` names the first problem and its offset.
package struct Base64DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    package let reason: String
    package var description: String { reason }
}

/// Strict standard base64.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Reverse lookup: 0xFF marks a byte outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, char) in alphabet.enumerated() { table[Int(char)] = UInt8(value) }
        return table
    }()

    package static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = bytes[index]
            let b1 = remaining > 1 ? bytes[index + 1] : 0
            let b2 = remaining > 2 ? bytes[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(remaining > 1 ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(remaining > 2 ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `text`.
    /// - Throws: `Base64DecodingError` naming the first problem.
    package static func decode(_ text: some StringProtocol) throws(Base64DecodingError) -> [UInt8] {
        try decode(Array(text.utf8))
    }

    /// Decodes the UTF-8 bytes of a base64 text.
    /// - Throws: `Base64DecodingError` naming the first problem.
    package static func decode(_ text: [UInt8]) throws(Base64DecodingError) -> [UInt8] {
        guard text.count % 4 == 0 else {
            throw Base64DecodingError(reason: "base64 length \(text.count) is not a multiple of 4")
        }
        var out = [UInt8]()
        out.reserveCapacity(text.count / 4 * 3)
        var quad = 0
        while quad < text.count {
            let isLast = quad + 4 == text.count
            let padding = isLast ? text[quad..<(quad + 4)].reversed().prefix { $0 == UInt8(ascii: "=") }.count : 0
            guard padding <= 2 else {
                throw Base64DecodingError(reason: "more than two '=' at the end")
            }
            var word: UInt32 = 0
            for offset in 0..<(4 - padding) {
                let value = values[Int(text[quad + offset])]
                guard value != 0xFF else {
                    throw Base64DecodingError(reason: "byte \(text[quad + offset]) at \(quad + offset) is not base64")
                }
                word |= UInt32(value) << (18 - 6 * UInt32(offset))
            }
            let produced = 3 - padding
            // Bits below the last produced byte must be zero, or two texts would decode to one value.
            guard word & ((1 << (8 * UInt32(3 - produced))) - 1) == 0 else {
                throw Base64DecodingError(reason: "non-zero trailing bits before padding")
            }
            for byte in 0..<produced { out.append(UInt8(truncatingIfNeeded: word >> (16 - 8 * UInt32(byte)))) }
            quad += 4
        }
        return out
    }
}
