// What a verb's decoder reads: the step's fields, already checked against the verb's FieldSpecs
// (so a read here cannot fail on a well-formed file; if it does, the error still carries the
// field's position), the nested steps of a `parallel` block, and the step's name.

package struct StepFields: Sendable {
    let fields: Fields?
    package let substeps: [Step]
    package let stepName: String?
    /// The scenario's member labels (for nested expectations).
    let members: [String]

    func node(_ key: String) -> YAMLNode? { fields?[key] }

    func required(_ key: String) throws(ScenarioError) -> YAMLNode {
        guard let fields else { throw ScenarioError(.missingField, at: SourceLocation(file: "", line: 0, column: 0), "no field '\(key)'") }
        return try fields.required(key)
    }

    package func string(_ key: String) throws(ScenarioError) -> String { try required(key).string(key) }
    package func optionalString(_ key: String) throws(ScenarioError) -> String? { try node(key)?.string(key) }
    /// A list of labels (a single label counts as a list of one; runs such as `m001..m149` are
    /// expanded, see `LabelRange`); empty when absent.
    package func labels(_ key: String) throws(ScenarioError) -> [String] { LabelRange.expand(try node(key)?.stringList(key) ?? []) }
    /// A list of relay names (a single name counts as a list of one); empty when absent.
    package func relayNames(_ key: String) throws(ScenarioError) -> [String] { try node(key)?.stringList(key) ?? [] }
    package func flag(_ key: String, default value: Bool) throws(ScenarioError) -> Bool { try node(key)?.boolean(key) ?? value }
    package func optionalFlag(_ key: String) throws(ScenarioError) -> Bool? { try node(key)?.boolean(key) }
    package func duration(_ key: String) throws(ScenarioError) -> ScenarioDuration { try required(key).duration(key) }
    package func optionalDuration(_ key: String) throws(ScenarioError) -> ScenarioDuration? { try node(key)?.duration(key) }
    package func optionalInteger(_ key: String, in range: ClosedRange<Int64>) throws(ScenarioError) -> Int64? {
        try node(key)?.integer(key, in: range)
    }
    package func optionalKind(_ key: String) throws(ScenarioError) -> UInt16? {
        try optionalInteger(key, in: 0...65535).map { UInt16($0) }
    }
    package func optionalTags(_ key: String) throws(ScenarioError) -> [[String]]? { try node(key)?.tags(key) }

    /// One of a word enum's raw values.
    package func word<Word: RawRepresentable<String>>(_ key: String, as type: Word.Type) throws(ScenarioError) -> Word {
        try decodeWord(try required(key))
    }
    package func optionalWord<Word: RawRepresentable<String>>(_ key: String, as type: Word.Type) throws(ScenarioError) -> Word? {
        guard let node = node(key) else { return nil }
        return try decodeWord(node)
    }
    /// One or a list of a word enum's raw values.
    package func words<Word: RawRepresentable<String>>(_ key: String, as type: Word.Type) throws(ScenarioError) -> [Word] {
        let items: [YAMLNode] =
            switch node(key)?.value {
            case .sequence(let list)?: list
            case nil: []
            default: [node(key)!]
            }
        var out: [Word] = []
        for item in items { out.append(try decodeWord(item)) }
        return out
    }

    /// A nested mapping's fields (`copy` of `inject`).
    package func nested(_ key: String) -> StepFields? {
        guard let node = node(key), case .mapping(let entries) = node.value else { return nil }
        return StepFields(fields: Fields(context: key, node: node, entries: entries), substeps: [], stepName: nil, members: members)
    }

    /// The expectations of a `members` field (`check`).
    package func memberExpectations(_ key: String) throws(ScenarioError) -> [MemberExpectation] {
        guard let node = node(key) else { return [] }
        return try Expectations.memberExpectations(node, what: "'\(key)' of check", members: members)
    }

    func decodeWord<Word: RawRepresentable<String>>(_ node: YAMLNode) throws(ScenarioError) -> Word {
        let text = try node.string("a word")
        guard let word = Word(rawValue: text) else {
            throw ScenarioError(.invalidValue, at: node.location, "'\(text)' is not one of \(Word.self)")
        }
        return word
    }
}
