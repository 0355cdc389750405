// Reads the targets of Package.swift and the dependencies each declares, from the manifest's text
// (running SwiftPM from a test would be slow and need the network). It understands the forms the
// manifest uses: `.target(name:dependencies:)` and its siblings, dependencies as "Name",
// `.product(name:package:)`, `.target(name:)` or `.byName(name:)`.
import Foundation

/// One target of the manifest.
struct ManifestTarget: Equatable, Sendable {
    let name: String
    /// `target`, `executableTarget`, `testTarget`, `systemLibrary`, …
    let kind: String
    /// Target names and product names (= module names for the packages used here).
    let dependencies: Set<String>
}

enum ManifestTargets {
    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// Every element of the `targets:` array of `text`.
    static func parse(_ text: String) throws -> [ManifestTarget] {
        let code = Array(withoutComments(text))
        guard let call = find(Array("Package("), in: code, from: 0) else {
            throw ParseError(description: "Package.swift: no `Package(` found")
        }
        // The `targets:` argument of Package(…), not the `targets:` of a product.
        let arguments = try elements(of: code, openingAt: call + "Package".count)
        guard let argument = arguments.first(where: { String($0).trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("targets:") }),
            let open = argument.firstIndex(of: "[")
        else { throw ParseError(description: "Package.swift: Package(…) has no `targets: [` argument") }
        return try elements(of: argument, openingAt: open).map(target)
    }

    /// One `.kind(name: "…", …)` element.
    static func target(_ element: [Character]) throws -> ManifestTarget {
        let text = String(element).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("."), let paren = text.firstIndex(of: "("),
            let name = text.firstMatch(of: #/name:\s*"([^"]+)"/#)?.output.1
        else { throw ParseError(description: "Package.swift: cannot read the target `\(text.prefix(60))`") }
        let kind = String(text[text.index(after: text.startIndex)..<paren])
        var dependencies: Set<String> = []
        let characters = Array(text)
        if let label = find(Array("dependencies:"), in: characters, from: 0),
            let open = characters[label...].firstIndex(of: "[")
        {
            for dependency in try elements(of: characters, openingAt: open) {
                let item = String(dependency)
                if let named = item.firstMatch(of: #/name:\s*"([^"]+)"/#) {
                    dependencies.insert(String(named.output.1))
                } else if let plain = item.firstMatch(of: #/"([^"]+)"/#) {
                    dependencies.insert(String(plain.output.1))
                }
            }
        }
        return ManifestTarget(name: String(name), kind: kind, dependencies: dependencies)
    }

    /// The top-level, comma-separated elements of the bracket opening at `open`.
    static func elements(of code: [Character], openingAt open: Int) throws -> [[Character]] {
        var result: [[Character]] = [], current: [Character] = []
        var depth = 0, inString = false, index = open
        func finish() {
            if !current.allSatisfy(\.isWhitespace) { result.append(current) }
            current = []
        }
        while index < code.count {
            let character = code[index]
            index += 1
            if inString {
                current.append(character)
                if character == "\\", index < code.count {
                    current.append(code[index])
                    index += 1
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"":
                inString = true
            case "[", "(":
                depth += 1
                if depth == 1 { continue }
            case "]", ")":
                depth -= 1
                if depth == 0 {
                    finish()
                    return result
                }
            case "," where depth == 1:
                finish()
                continue
            default:
                break
            }
            current.append(character)
        }
        throw ParseError(description: "Package.swift: unbalanced brackets")
    }

    /// `text` without `//` and `/* */` comments (string literals are kept as they are).
    static func withoutComments(_ text: String) -> String {
        let characters = Array(text)
        var out: [Character] = [], index = 0, inString = false
        while index < characters.count {
            let character = characters[index], next = index + 1 < characters.count ? characters[index + 1] : " "
            if inString {
                out.append(character)
                if character == "\\", index + 1 < characters.count { out.append(next); index += 2; continue }
                if character == "\"" { inString = false }
                index += 1
            } else if character == "/", next == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character == "/", next == "*" {
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
                index += 2
            } else {
                if character == "\"" { inString = true }
                out.append(character)
                index += 1
            }
        }
        return String(out)
    }

    static func find(_ needle: [Character], in haystack: [Character], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
