// JSON strings (RFC 8259 §7): escapes, \uXXXX with surrogate pairs (a lone surrogate is refused),
// and raw control characters refused. Split from JSONValue.swift to keep each file short.
//
//   string = quotation-mark *char quotation-mark
//   char = unescaped / escape ( %x22 / %x5C / %x2F / %x62 / %x66 / %x6E / %x72 / %x74 / %x75 4HEXDIG )
//   unescaped = %x20-21 / %x23-5B / %x5D-10FFFF
import ErrorCodes

extension JSONParser {
    mutating func parseString() throws(NostrError) -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            if c < 0x20 {
                throw NostrError(.jsonInvalidString, "unescaped control character 0x\(String(c, radix: 16)) at byte \(index)")
            }
            if c == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[runStart..<index])
                index += 1
                try parseEscape(into: &out)
                runStart = index
                continue
            }
            index += 1
        }
        guard let string = String(validating: out, as: UTF8.self) else {
            throw NostrError(.jsonInvalidString, "string is not valid UTF-8 (ending at byte \(index))")
        }
        return string
    }

    mutating func parseEscape(into out: inout [UInt8]) throws(NostrError) {
        guard index < bytes.count else { throw fail("unterminated escape") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4())
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw NostrError(.jsonInvalidString, "lone high surrogate at byte \(index)") }
                index += 2
                let low = UInt32(try parseHex4())
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw NostrError(.jsonInvalidString, "high surrogate not followed by a low one at byte \(index)")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw NostrError(.jsonInvalidString, "lone low surrogate at byte \(index)")
            }
            // Cannot fail: surrogates were excluded above and the value is at most 0x10FFFF.
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
            out.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw NostrError(.jsonInvalidString, "invalid escape '\\\(Character(Unicode.Scalar(c)))' at byte \(index - 1)")
        }
    }

    mutating func parseHex4() throws(NostrError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw NostrError(.jsonInvalidString, "invalid hex digit in \\u escape at byte \(index)")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
