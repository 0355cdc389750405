// A YAML document as our own Sendable tree, every node carrying its source position.
//
// Yams' Node is not Sendable and its DecodingError carries no positions, so we convert the
// composed tree once (in this file only) and decode from our tree, reporting every problem at
// the line and column of the node that caused it.
import Yams

/// A node of a scenario file.
package struct YAMLNode: Sendable, Hashable {
    /// A mapping entry; keys are always strings in scenario files.
    package struct Entry: Sendable, Hashable {
        package let key: String
        package let keyLocation: SourceLocation
        package let value: YAMLNode
    }

    package enum Value: Sendable, Hashable {
        /// A scalar's text; `quoted` is true for quoted or block scalars, which are always strings.
        case scalar(String, quoted: Bool)
        case sequence([YAMLNode])
        case mapping([Entry])
    }

    package let value: Value
    package let location: SourceLocation

    /// A short name of the node's kind, for messages.
    package var kindName: String {
        switch value {
        case .scalar: "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// Parses YAML text into a `YAMLNode` tree.
package enum YAMLLoader {
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the name used in error locations.
    /// - Throws: `ScenarioError` with the position of a syntax error, a duplicate key, an anchor
    ///   (aliases need one) or a non-string key.
    package static func load(_ text: String, file: String) throws(ScenarioError) -> YAMLNode {
        let root: Node?
        // Yams composes an alias as the anchored node itself, shared, so the composed tree stays as
        // small as the text; converting it naively would expand every alias (an "alias bomb": a few
        // lines, billions of nodes). Anchors are therefore refused where they are defined, before
        // anything below them is visited. A node's anchor is held weakly, by the parser: it must
        // outlive the conversion.
        let parser: Parser
        do {
            parser = try Parser(yaml: text)
            root = try parser.singleRoot()
        } catch let error as YamlError {
            throw convert(error, file: file, text: text)
        } catch {
            throw ScenarioError(.yamlSyntax, at: SourceLocation(file: file, line: 1, column: 1), "\(error)")
        }
        guard let root else {
            throw ScenarioError(.missingField, at: SourceLocation(file: file, line: 1, column: 1), "the file is empty")
        }
        defer { withExtendedLifetime(parser) {} }
        return try convert(root, file: file)
    }

    /// The anchor a node defines (`&name`), if any.
    static func anchor(of node: Node) -> String? {
        switch node {
        case .scalar(let scalar): scalar.anchor?.rawValue
        case .sequence(let sequence): sequence.anchor?.rawValue
        case .mapping(let mapping): mapping.anchor?.rawValue
        case .alias(let alias): alias.anchor.rawValue
        }
    }

    /// The next `key:` after `first`: further along the same line (flow style) or at the same
    /// column of a later line (block style).
    static func secondOccurrence(of key: String, line: Int, column: Int, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count, column >= 1, !key.isEmpty else { return nil }
        func keyStarts(_ line: Substring, atOffset offset: Int) -> Bool {
            let chars = Array(line)
            let keyChars = Array(key)
            guard offset >= 0, offset + keyChars.count <= chars.count,
                Array(chars[offset..<offset + keyChars.count]) == keyChars
            else { return false }
            let rest = chars[(offset + keyChars.count)...].drop { $0 == " " }
            let boundary = offset == 0 || [" ", "{", ",", "-"].contains(chars[offset - 1])
            return boundary && rest.first == ":"
        }
        let sameLine = lines[line - 1]
        for offset in stride(from: column - 1 + key.count, to: sameLine.count, by: 1) where keyStarts(sameLine, atOffset: offset) {
            return (line, offset + 1)
        }
        for index in line..<lines.count where keyStarts(lines[index], atOffset: column - 1) {
            return (index + 1, column)
        }
        return nil
    }

    static func location(_ mark: Mark?, _ file: String) -> SourceLocation {
        SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    static func convert(_ node: Node, file: String) throws(ScenarioError) -> YAMLNode {
        let here = location(node.mark, file)
        if let anchor = anchor(of: node) {
            throw ScenarioError(
                .unsupportedYAML, at: here,
                "YAML anchors and aliases (&\(anchor), *\(anchor)) are not supported in scenario files; repeat the value")
        }
        switch node {
        case .scalar(let scalar):
            let quoted = scalar.style != .plain && scalar.style != .any
            return YAMLNode(value: .scalar(scalar.string, quoted: quoted), location: here)
        case .sequence(let sequence):
            var items: [YAMLNode] = []
            for item in sequence { items.append(try convert(item, file: file)) }
            return YAMLNode(value: .sequence(items), location: here)
        case .mapping(let mapping):
            var entries: [YAMLNode.Entry] = []
            var seen: [String: SourceLocation] = [:]
            for (key, value) in mapping {
                let keyLocation = location(key.mark, file)
                guard case .scalar(let keyScalar) = key else {
                    throw ScenarioError(.unsupportedYAML, at: keyLocation, "mapping keys must be plain strings")
                }
                if let first = seen[keyScalar.string] {
                    throw ScenarioError(
                        .duplicateKey, at: keyLocation,
                        "duplicate key '\(keyScalar.string)' (first at line \(first.line), column \(first.column))")
                }
                seen[keyScalar.string] = keyLocation
                entries.append(.init(key: keyScalar.string, keyLocation: keyLocation, value: try convert(value, file: file)))
            }
            return YAMLNode(value: .mapping(entries), location: here)
        case .alias:
            throw ScenarioError(.unsupportedYAML, at: here, "YAML aliases are not supported in scenario files; repeat the value")
        }
    }

    static func convert(_ error: YamlError, file: String, text: String) -> ScenarioError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? problem
            return ScenarioError(.yamlSyntax, at: location(mark, file), "YAML syntax error: \(detail)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams marks the first occurrence; the error belongs at the repeated one.
            let key = duplicates.first ?? ""
            let first = context.mark
            let repeated = secondOccurrence(of: key, line: first.line, column: first.column, in: text)
            return ScenarioError(
                .duplicateKey,
                at: SourceLocation(file: file, line: repeated?.line ?? first.line, column: repeated?.column ?? first.column),
                "duplicate key '\(key)' (first at line \(first.line), column \(first.column))")
        case .reader(let problem, let offset, _, _):
            return ScenarioError(
                .yamlSyntax, at: SourceLocation(file: file, line: 1, column: 1),
                "unreadable YAML: \(problem)\(offset.map { " at byte \($0)" } ?? "")")
        default:
            return ScenarioError(.yamlSyntax, at: SourceLocation(file: file, line: 1, column: 1), "\(error)")
        }
    }
}
