// Reads the layer table of docs/architecture.md: target → layer, what it may import, and what
// Package.swift declares for it that no file imports. The table is the one place the layering is
// written down; ArchitectureCheck holds the sources and the manifest to it.
import Foundation

/// One row of the table.
struct LayerRow: Equatable, Sendable {
    let target: String
    let layer: Int
    /// Targets, products and toolchain modules the target's files may import.
    let mayImport: [String]
    /// Dependencies Package.swift declares that no file of the target imports.
    let declaredUnused: [String]
}

enum LayerTable {
    /// The header that marks the table (cells, lower-cased, trimmed).
    static let header = ["target", "layer", "may import", "declared, never imported"]

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// The rows of the first table with `header`; `file` names the document in errors.
    static func parse(_ text: String, file: String = "docs/architecture.md") throws -> [LayerRow] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let headerIndex = lines.firstIndex(where: { cells($0)?.map { $0.lowercased() } == header }) else {
            throw ParseError(description: "\(file): no table with the header | \(header.joined(separator: " | ")) |")
        }
        var rows: [LayerRow] = []
        for index in (headerIndex + 2)..<lines.count {
            guard let cells = cells(lines[index]) else { break }
            guard cells.count == header.count, let layer = Int(cells[1]) else {
                throw ParseError(description: "\(file):\(index + 1): a row needs \(header.count) cells and a layer number")
            }
            rows.append(
                LayerRow(
                    target: unquoted(cells[0]), layer: layer, mayImport: list(cells[2]), declaredUnused: list(cells[3])))
        }
        guard !rows.isEmpty else { throw ParseError(description: "\(file):\(headerIndex + 1): the layer table has no rows") }
        return rows
    }

    /// The trimmed cells of a Markdown table line, or nil when the line is not one.
    static func cells(_ line: String) -> [String]? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, trimmed.hasPrefix("|"), trimmed.hasSuffix("|") else { return nil }
        return trimmed.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A comma-separated cell; `—` or `-` is the empty list.
    static func list(_ cell: String) -> [String] {
        guard cell != "—", cell != "-", !cell.isEmpty else { return [] }
        return cell.split(separator: ",").map { unquoted($0.trimmingCharacters(in: .whitespaces)) }
    }

    static func unquoted(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    }
}
