// Which engine a run puts members on, as written on the command line (docs/engines.md):
// `swift`, `mdk`, `mixed`, a name from the engines file, or `driver:CMD ARGS` for a one-off driver.
// Parsed once, where the text comes in (the command line, a replayed capsule); the runner, the
// executor and the engine set take the typed value and never parse it again.
import ScenarioModel

/// Which engine members without one of their own run on. Its `rawValue` is what reports, ledger
/// entries, pinned fingerprints and capsules call the engine.
package struct EngineSelection: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        /// An engine built into marmot-conform (`ScenarioModel.EngineName`: the one list of them).
        case builtIn(EngineName)
        /// Every built-in engine, alternating over the members.
        case mixed
        /// Defined in the engines file (resolved when the session starts), or a caller's engine.
        case named(String)
        /// A driver command line given on the command line.
        case driver(command: String)
        /// An interop-matrix cell: one engine per member without its own, in declaration order.
        case assignment([EngineSelection])
    }

    package let kind: Kind

    package static let swift = Self(kind: .builtIn(.swift))
    package static let mdk = Self(kind: .builtIn(.mdk))
    package static let mixed = Self(kind: .mixed)
    package static let mixedWord = EngineName.mixedSelection
    package static let driverPrefix = "driver:"
    /// The prefix of an explicit assignment (an interop-matrix cell): `matrix:swift,mdk,mdk` gives
    /// the members without an engine of their own these engines, in declaration order.
    package static let assignmentPrefix = "matrix:"

    package init(kind: Kind) { self.kind = kind }

    /// One engine by name: a built-in engine, else a name the run registers (an engines-file entry,
    /// a compatibility-kit caller's engine). No selection syntax is read (`mixed`, `matrix:`,
    /// `driver:` are names here like any other).
    package init(engine name: String) {
        kind = EngineName(rawValue: name).map(Kind.builtIn) ?? .named(name)
    }

    /// The selection a text names, or nil when it names none.
    package init?(rawValue text: String) {
        if let engine = EngineName(rawValue: text) {
            kind = .builtIn(engine)
            return
        }
        switch text {
        case Self.mixedWord: kind = .mixed
        case _ where text.hasPrefix(Self.assignmentPrefix):
            var engines: [EngineSelection] = []
            for part in text.dropFirst(Self.assignmentPrefix.count).split(separator: ",", omittingEmptySubsequences: false) {
                guard let engine = EngineSelection(rawValue: String(part)), engine.isSingleEngine else { return nil }
                engines.append(engine)
            }
            kind = .assignment(engines)
        case _ where text.hasPrefix(Self.driverPrefix):
            let command = text.dropFirst(Self.driverPrefix.count).trimmingWhitespace
            guard !command.isEmpty, CommandWords.split(command) != nil else { return nil }
            kind = .driver(command: command)
        default:
            guard Self.isName(text) else { return nil }
            kind = .named(text)
        }
    }

    package var rawValue: String {
        switch kind {
        case .builtIn(let engine): engine.rawValue
        case .mixed: Self.mixedWord
        case .named(let name): name
        case .driver(let command): Self.driverPrefix + command
        case .assignment(let engines): Self.assignmentPrefix + engines.map(\.rawValue).joined(separator: ",")
        }
    }

    /// One engine by name (what an assignment may name): a built-in or an engines-file name.
    package var isSingleEngine: Bool {
        switch kind {
        case .builtIn, .named: true
        case .mixed, .driver, .assignment: false
        }
    }

    package var description: String { rawValue }

    /// The engines members run on under this selection (`mixed`: every built-in engine).
    package var engines: [EngineSelection] {
        switch kind {
        case .mixed: EngineName.allCases.map { Self(kind: .builtIn($0)) }
        case .assignment(let engines): engines.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        default: [self]
        }
    }

    package static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }
}

/// Splits a driver command line into words: spaces separate, single or double quotes group, a
/// backslash escapes the next character (no variables, no globbing). Nil for an unclosed quote.
package enum CommandWords {
    package static func split(_ line: some StringProtocol) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(current) }
        return words
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
