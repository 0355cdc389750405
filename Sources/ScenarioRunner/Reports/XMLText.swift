/// XML 1.0 text for content and attribute values: the five entities escaped, and characters XML
/// cannot carry (other C0 controls, U+FFFE, U+FFFF) replaced by U+FFFD, so that a report built
/// from untrusted text (relay notices, event content) is always well-formed.
enum XMLText {
    enum LineBreaks {
        /// Tab, LF and CR stay (JUnit failure bodies).
        case kept
        /// Each becomes a space (SVG labels).
        case spaces
    }

    static func escape(_ text: String, lineBreaks: LineBreaks) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r":
                if lineBreaks == .kept { out.unicodeScalars.append(scalar) } else { out += " " }
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
