// Compact member declarations for large worlds (scenarios/scale/): a member entry with `count: N`
// declares N members named `label` + a zero-padded number (`{ label: m, count: 149 }` declares
// m001 … m149), and wherever a list of member labels is read (`with`, `members`, the keys of
// `expect.members`), `m001..m149` names that run. Without these, a 150-member scenario would be a
// 300-line list that nobody reviews.

/// A run of numbered member labels, `m001..m149`: one prefix, two numbers of the same width.
package struct LabelRange: Hashable, Sendable {
    package let prefix: String
    package let first: Int
    package let last: Int
    package let width: Int

    /// The labels a `count` declaration makes: `label` + 1…count, padded to the width of `count`.
    package static func declared(_ label: String, count: Int) -> [String] {
        LabelRange(prefix: label, first: 1, last: count, width: String(count).count).labels
    }

    /// Parses `a..b`; nil when the text is not of that form (an ordinary label), so that a label
    /// containing no `..` never changes meaning.
    package init?(_ text: String) {
        guard let dots = text.firstRange(of: "..") else { return nil }
        let parts = [String(text[..<dots.lowerBound]), String(text[dots.upperBound...])]
        guard let (prefix, first, width) = Self.split(parts[0]), let (prefix2, last, width2) = Self.split(parts[1]),
            prefix == prefix2, width == width2, first <= last
        else { return nil }
        self.init(prefix: prefix, first: first, last: last, width: width)
    }

    init(prefix: String, first: Int, last: Int, width: Int) {
        self.prefix = prefix
        self.first = first
        self.last = last
        self.width = width
    }

    package var labels: [String] {
        (first...last).map { number in
            let digits = String(number)
            return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }

    /// `m007` → ("m", 7, 3); nil without trailing digits or a prefix.
    private static func split(_ label: String) -> (String, Int, Int)? {
        let digits = label.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < label.count, digits.count <= 6, let number = Int(String(digits.reversed())) else {
            return nil
        }
        return (String(label.dropLast(digits.count)), number, digits.count)
    }

    /// Each item of a label list with its ranges expanded, in order.
    package static func expand(_ items: [String]) -> [String] {
        items.flatMap { item in LabelRange(item)?.labels ?? [item] }
    }
}
