// Typed reading of YAMLNode values, each failure reported at the offending node.

/// A span of virtual time written in a scenario (`250ms`, `30s`, `2m`, `1h`, `1m30s`).
package struct ScenarioDuration: Hashable, Sendable, Comparable, CustomStringConvertible {
    package let milliseconds: Int64
    package init(milliseconds: Int64) { self.milliseconds = milliseconds }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }
    package var description: String { "\(milliseconds)ms" }
}

extension YAMLNode {
    /// The mapping's fields, checked against the keys the context allows and requires.
    package func fields(of context: String, allowed: [String], required: [String] = []) throws(ScenarioError) -> Fields {
        guard case .mapping(let entries) = value else {
            throw ScenarioError(.wrongType, at: location, "\(context) must be a mapping, found \(kindName)")
        }
        for entry in entries where !allowed.contains(entry.key) {
            let hint = Fields.closest(to: entry.key, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
            throw ScenarioError(
                .unknownKey, at: entry.keyLocation,
                "unknown key '\(entry.key)' in \(context)\(hint); allowed: \(allowed.joined(separator: ", "))")
        }
        for key in required where !entries.contains(where: { $0.key == key }) {
            throw ScenarioError(.missingField, at: location, "\(context) is missing the required field '\(key)'")
        }
        return Fields(context: context, node: self, entries: entries)
    }

    /// The scalar's text.
    package func string(_ what: String) throws(ScenarioError) -> String {
        guard case .scalar(let text, _) = value else {
            throw ScenarioError(.wrongType, at: location, "\(what) must be a string, found \(kindName)")
        }
        return text
    }

    /// A plain (unquoted) integer scalar within `range`.
    package func integer(_ what: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(ScenarioError) -> Int64 {
        guard case .scalar(let text, let quoted) = value, !quoted, let number = Int64(text) else {
            throw ScenarioError(.wrongType, at: location, "\(what) must be an integer, found \(describe)")
        }
        guard range.contains(number) else {
            throw ScenarioError(
                .invalidValue, at: location, "\(what) must be in \(range.lowerBound)...\(range.upperBound), found \(number)")
        }
        return number
    }

    /// A plain `true` or `false`.
    package func boolean(_ what: String) throws(ScenarioError) -> Bool {
        guard case .scalar(let text, let quoted) = value, !quoted, text == "true" || text == "false" else {
            throw ScenarioError(.wrongType, at: location, "\(what) must be true or false, found \(describe)")
        }
        return text == "true"
    }

    /// One of a fixed set of words.
    package func word(_ what: String, oneOf choices: [String]) throws(ScenarioError) -> String {
        let text = try string(what)
        guard choices.contains(text) else {
            let hint = Fields.closest(to: text, in: choices).map { " (did you mean '\($0)'?)" } ?? ""
            throw ScenarioError(
                .invalidValue, at: location, "\(what) must be one of \(choices.joined(separator: ", ")), found '\(text)'\(hint)")
        }
        return text
    }

    /// One of a word enum's raw values, decoded at load: a bad value is an error at this node,
    /// listing the enum's values in declaration order (the same text as `word(_:oneOf:)`).
    package func word<Word: RawRepresentable<String> & CaseIterable>(_ what: String, as type: Word.Type) throws(ScenarioError) -> Word {
        let choices = Word.allCases.map(\.rawValue)
        // `word(_:oneOf:)` has already refused any text that is not a raw value.
        guard let word = Word(rawValue: try word(what, oneOf: choices)) else {
            throw ScenarioError(.invalidValue, at: location, "\(what) is not one of \(choices.joined(separator: ", "))")
        }
        return word
    }

    /// The items of a list.
    package func list(_ what: String) throws(ScenarioError) -> [YAMLNode] {
        guard case .sequence(let items) = value else {
            throw ScenarioError(.wrongType, at: location, "\(what) must be a list, found \(kindName)")
        }
        return items
    }

    /// A list of strings; a single scalar counts as a list of one.
    package func stringList(_ what: String) throws(ScenarioError) -> [String] {
        if case .scalar(let text, _) = value { return [text] }
        var out: [String] = []
        for item in try list(what) { out.append(try item.string("each item of \(what)")) }
        return out
    }

    /// Nostr tags: a list of non-empty lists of strings.
    package func tags(_ what: String) throws(ScenarioError) -> [[String]] {
        var out: [[String]] = []
        for item in try list(what) {
            guard case .sequence = item.value else {
                throw ScenarioError(.wrongType, at: item.location, "each tag of \(what) must be a list of strings, found \(item.kindName)")
            }
            let tag = try item.stringList("each tag of \(what)")
            guard !tag.isEmpty else { throw ScenarioError(.invalidValue, at: item.location, "a tag of \(what) is empty: it needs a name") }
            out.append(tag)
        }
        return out
    }

    /// A duration with a unit: `ms`, `s`, `m` or `h`, optionally several (`1m30s`).
    package func duration(_ what: String) throws(ScenarioError) -> ScenarioDuration {
        let text = try string(what)
        guard let ms = Self.parseDuration(text) else {
            throw ScenarioError(
                .badDuration, at: location,
                "\(what) '\(text)' is not a duration: write a number with a unit, e.g. 500ms, 30s, 2m, 1h or 1m30s")
        }
        return ScenarioDuration(milliseconds: ms)
    }

    static func parseDuration(_ text: String) -> Int64? {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        var rest = Substring(text)
        var total: Int64 = 0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let number = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            // "ms" must be tried before "m".
            guard let (unit, factor) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest = rest.dropFirst(unit.count)
            let (product, overflow1) = number.multipliedReportingOverflow(by: factor)
            let (sum, overflow2) = total.addingReportingOverflow(product)
            guard !overflow1, !overflow2 else { return nil }
            total = sum
        }
        return total
    }

    var describe: String {
        if case .scalar(let text, _) = value { return "'\(text)'" }
        return kindName
    }
}

/// The checked fields of one mapping.
package struct Fields: Sendable {
    package let context: String
    package let node: YAMLNode
    let entries: [YAMLNode.Entry]

    package var location: SourceLocation { node.location }

    package subscript(key: String) -> YAMLNode? { entries.first { $0.key == key }?.value }

    /// A field that `fields(of:allowed:required:)` already checked to be present.
    package func required(_ key: String) throws(ScenarioError) -> YAMLNode {
        guard let value = self[key] else {
            throw ScenarioError(.missingField, at: location, "\(context) is missing the required field '\(key)'")
        }
        return value
    }

    /// The key among `candidates` nearest to `word` by edit distance, if it is a plausible typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(Array(word), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, word.count / 3) else { return nil }
        return best.0
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
