// Which engine a run puts members on, as written on the command line (docs/engines.md):
// `swift`, `mdk`, `mixed`, a name from the engines file, or `driver:CMD ARGS` for a one-off driver.
import ArgumentParser

/// Which engine members without one of their own run on. Its `rawValue` is what reports, ledger
/// entries, pinned fingerprints and capsules call the engine.
struct EngineSelection: Hashable, Sendable, ExpressibleByArgument, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case swift, mdk, mixed
        /// Defined in the engines file (resolved when the session starts).
        case named(String)
        /// A driver command line given on the command line.
        case driver(command: String)
        /// An interop-matrix cell: one engine per member without its own, in declaration order.
        case assignment([EngineSelection])
    }

    let kind: Kind

    static let swift = Self(kind: .swift)
    static let mdk = Self(kind: .mdk)
    static let mixed = Self(kind: .mixed)
    static let driverPrefix = "driver:"
    /// The runner's prefix of an explicit assignment (`EngineSet.assignmentPrefix`).
    static let assignmentPrefix = "matrix:"

    init(kind: Kind) { self.kind = kind }

    init?(argument: String) { self.init(rawValue: argument) }

    init?(rawValue text: String) {
        switch text {
        case "swift": kind = .swift
        case "mdk": kind = .mdk
        case "mixed": kind = .mixed
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

    var rawValue: String {
        switch kind {
        case .swift: "swift"
        case .mdk: "mdk"
        case .mixed: "mixed"
        case .named(let name): name
        case .driver(let command): Self.driverPrefix + command
        case .assignment(let engines): Self.assignmentPrefix + engines.map(\.rawValue).joined(separator: ",")
        }
    }

    /// One engine by name (what an assignment may name): swift, mdk or an engines-file name.
    var isSingleEngine: Bool {
        switch kind {
        case .swift, .mdk, .named: true
        case .mixed, .driver, .assignment: false
        }
    }

    var description: String { rawValue }
    var defaultValueDescription: String { rawValue }

    /// The engines members run on under this selection (`mixed`: ours and MDK).
    var engines: [EngineSelection] {
        switch kind {
        case .mixed: [.swift, .mdk]
        case .assignment(let engines): engines.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        default: [self]
        }
    }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }
}

/// A list of engines, `swift,mdk` (`--engines` of a matrix run): at least one, no repeats, no `mixed`.
struct EngineList: ExpressibleByArgument, Equatable {
    let engines: [EngineSelection]

    init?(argument: String) {
        var engines: [EngineSelection] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let engine = EngineSelection(rawValue: String(part)), engine.isSingleEngine, !engines.contains(engine) else { return nil }
            engines.append(engine)
        }
        guard !engines.isEmpty else { return nil }
        self.engines = engines
    }
}

/// Splits a driver command line into words: spaces separate, single or double quotes group, a
/// backslash escapes the next character (no variables, no globbing). Nil for an unclosed quote.
enum CommandWords {
    static func split(_ line: some StringProtocol) -> [String]? {
        var words: [String] = [], current = "", inWord = false
        var quote: Character?, escaped = false
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
