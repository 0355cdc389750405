// An engine-independent scenario outcome (what every member ended up seeing), as stored in
// vectors/scenarios/<scenario>.json and compared after each run.
import Nostr
import ScenarioModel

/// A JSON-shaped value with a stable order, so that stored vectors diff cleanly.
package indirect enum Outcome: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case list([Outcome])
    case map([String: Outcome])

    // MARK: - JSON

    /// Pretty-printed JSON with sorted keys (the stored form of a vector).
    package func json() -> String {
        var out = ""
        write(into: &out, indent: 0)
        return out + "\n"
    }

    private func write(into out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .string(let s): out += Outcome.quote(s)
        case .list(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.write(into: &out, indent: indent + 1)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += closePad + "]"
        case .map(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            for (i, key) in members.keys.sorted().enumerated() {
                out += pad + Outcome.quote(key) + ": "
                members[key]!.write(into: &out, indent: indent + 1)  // key comes from members.keys
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += closePad + "}"
        }
    }

    static func quote(_ s: String) -> String {
        JSONValue.string(s).serialized()
    }

    /// Parses a stored vector.
    /// - Throws: `ScenarioError` `.invalidValue` for JSON that is not an outcome (e.g. a fractional number).
    package init(json text: String, file: String) throws(ScenarioError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw ScenarioError(.invalidValue, at: SourceLocation(file: file, line: 1, column: 1), "not valid JSON: \(error)")
        }
        self = try Outcome(value, path: "", file: file)
    }

    init(_ value: JSONValue, path: String, file: String) throws(ScenarioError) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let literal):
            guard let integer = value.int64 else {
                throw ScenarioError(
                    .invalidValue, at: SourceLocation(file: file, line: 1, column: 1),
                    "\(path.isEmpty ? "the root" : path): only integers are allowed, found \(literal)")
            }
            self = .integer(integer)
        case .string(let s): self = .string(s)
        case .array(let items):
            var out: [Outcome] = []
            for (i, item) in items.enumerated() { out.append(try Outcome(item, path: "\(path)[\(i)]", file: file)) }
            self = .list(out)
        case .object(let members):
            var out: [String: Outcome] = [:]
            for (key, item) in members { out[key] = try Outcome(item, path: path.isEmpty ? key : "\(path).\(key)", file: file) }
            self = .map(out)
        }
    }
}

/// One difference between an expected and an observed outcome.
package struct OutcomeDifference: Hashable, Sendable, CustomStringConvertible {
    /// Where, as `members.bob.chats[0].name`.
    package let path: String
    package let expected: String
    package let observed: String
    package var description: String { "\(path.isEmpty ? "(root)" : path): expected \(expected), observed \(observed)" }
}

extension Outcome {
    /// Every place where `observed` differs from `self` (the expectation), deepest first reported,
    /// in a stable order (sorted keys, list positions).
    package func differences(from observed: Outcome, path: String = "") -> [OutcomeDifference] {
        switch (self, observed) {
        case (.map(let expected), .map(let actual)):
            var out: [OutcomeDifference] = []
            for key in Set(expected.keys).union(actual.keys).sorted() {
                let sub = path.isEmpty ? key : "\(path).\(key)"
                switch (expected[key], actual[key]) {
                case (let e?, let a?): out += e.differences(from: a, path: sub)
                case (let e?, nil): out.append(OutcomeDifference(path: sub, expected: e.summary, observed: "nothing"))
                case (nil, let a?): out.append(OutcomeDifference(path: sub, expected: "nothing", observed: a.summary))
                case (nil, nil): break
                }
            }
            return out
        case (.list(let expected), .list(let actual)) where expected.count == actual.count:
            return zip(expected, actual).enumerated().flatMap { i, pair in pair.0.differences(from: pair.1, path: "\(path)[\(i)]") }
        default:
            return self == observed ? [] : [OutcomeDifference(path: path, expected: summary, observed: observed.summary)]
        }
    }

    /// A one-line rendering for diffs.
    package var summary: String {
        switch self {
        case .null: "null"
        case .bool(let b): String(b)
        case .integer(let i): String(i)
        case .string(let s): Outcome.quote(s)
        case .list(let items): "[" + items.map(\.summary).joined(separator: ", ") + "]"
        case .map(let members): "{" + members.keys.sorted().map { "\($0): \(members[$0]!.summary)" }.joined(separator: ", ") + "}"
        }
    }
}
