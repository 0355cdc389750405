// Finds the repository and the `import` statements of every target under Sources/.
import Foundation

enum SourceImports {
    /// The repository root: the nearest folder above this file holding both Package.swift and
    /// docs/architecture.md (independent of the working directory the tests run in).
    static func repositoryRoot(from file: String = #filePath) throws -> URL {
        var url = URL(fileURLWithPath: file).deletingLastPathComponent()
        while url.path != "/" {
            let manifest = url.appendingPathComponent("Package.swift").path
            let doc = url.appendingPathComponent("docs/architecture.md").path
            if FileManager.default.fileExists(atPath: manifest), FileManager.default.fileExists(atPath: doc) { return url }
            url.deleteLastPathComponent()
        }
        throw LayerTable.ParseError(description: "no folder above \(file) holds Package.swift and docs/architecture.md")
    }

    /// The folders directly under `Sources/`.
    static func targetFolders(root: URL) throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        return try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .map(\.lastPathComponent).sorted()
    }

    /// Every `.swift` file under `Sources/<target>/`: its target, its root-relative path and its text,
    /// in target and path order.
    static func swiftFiles(root: URL) throws -> [(target: String, file: String, text: String)] {
        var found: [(target: String, file: String, text: String)] = []
        for target in try targetFolders(root: root) {
            let folder = root.appendingPathComponent("Sources").appendingPathComponent(target)
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            let files = walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
                .sorted { $0.path < $1.path }
            for file in files {
                let relative = "Sources/\(target)/" + file.path.dropFirst(folder.path.count + 1)
                found.append((target, relative, try String(contentsOf: file, encoding: .utf8)))
            }
        }
        return found
    }

    /// Every import of every `.swift` file under `Sources/<target>/`, in file and line order.
    static func all(root: URL) throws -> [ImportLine] {
        try swiftFiles(root: root).flatMap { imports(in: $0.text, file: $0.file, target: $0.target) }
    }

    /// The imports of one file: `import M`, `@testable import M`, `@_spi(X) import M`,
    /// `@preconcurrency import M`, `import struct M.T`, … (lines inside block comments are skipped).
    static func imports(in text: String, file: String, target: String) -> [ImportLine] {
        var found: [ImportLine] = []
        var inBlockComment = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inBlockComment {
                if trimmed.contains("*/") { inBlockComment = false }
                continue
            }
            if trimmed.hasPrefix("/*") {
                inBlockComment = !trimmed.contains("*/")
                continue
            }
            // Cheap filter first: Regex matching every line of Sources/ would take seconds.
            guard trimmed.hasPrefix("import ") || (trimmed.hasPrefix("@") && trimmed.contains("import ")) else { continue }
            if let match = trimmed.wholeMatch(of: Self.statement) {
                found.append(ImportLine(file: file, line: index + 1, target: target, module: String(match.output.1)))
            }
        }
        return found
    }

    /// A computed property: Regex is not Sendable, so it cannot be a stored static.
    static var statement: Regex<(Substring, Substring)> {
        #/(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)(?:\.[\w.]+)?\s*(?://.*)?/#
    }
}
