// Holds the sources and Package.swift to the layer table of docs/architecture.md. Pure: it takes
// the table, the manifest's targets, the folders under Sources/ and the imports found there, and
// returns one line per problem, so tests can feed it both the repository and crafted breakage.
import Foundation

/// One `import` statement of a source file.
struct ImportLine: Equatable, Sendable {
    /// Repository-relative path, e.g. `Sources/Nostr/Event.swift`.
    let file: String
    let line: Int
    /// The target folder under `Sources/`.
    let target: String
    let module: String
}

struct ArchitectureCheck {
    /// Modules any target may import: the standard library and the platform's C and concurrency modules.
    static let platformModules: Set<String> = [
        "Swift", "_Concurrency", "_StringProcessing", "Synchronization", "Dispatch", "Glibc", "Musl", "Darwin",
    ]
    /// Modules that come with the toolchain: allowed only where the table lists them, never declared.
    static let toolchainModules: Set<String> = ["Foundation", "FoundationEssentials", "Testing", "XCTest"]

    let rows: [LayerRow]
    let manifest: [ManifestTarget]
    let sourceFolders: [String]
    let imports: [ImportLine]

    /// Every problem found, one line each.
    func problems() -> [String] {
        coverage() + disallowedImports() + layering() + manifestAgreement() + unusedDependencies()
    }

    var rowsByTarget: [String: LayerRow] {
        Dictionary(rows.map { ($0.target, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every folder under Sources/ has one row, and every row a folder.
    func coverage() -> [String] {
        var problems: [String] = []
        let named = rows.map(\.target)
        for target in Set(named) where named.filter({ $0 == target }).count > 1 {
            problems.append("docs/architecture.md: \(target) has more than one row")
        }
        for folder in sourceFolders.sorted() where !named.contains(folder) {
            problems.append("Sources/\(folder) has no row in docs/architecture.md's layer table")
        }
        for target in named.sorted() where !sourceFolders.contains(target) {
            problems.append("docs/architecture.md: row \(target) names no folder under Sources/")
        }
        return problems
    }

    /// Every import is allowed by its target's row.
    func disallowedImports() -> [String] {
        let table = rowsByTarget
        return imports.compactMap { found in
            guard !Self.platformModules.contains(found.module) else { return nil }
            guard let row = table[found.target] else { return nil }  // reported by coverage()
            guard !row.mayImport.contains(found.module) else { return nil }
            let allowed = row.mayImport.isEmpty ? "nothing" : row.mayImport.joined(separator: ", ")
            return "\(found.file):\(found.line): \(found.target) imports \(found.module), which docs/architecture.md "
                + "does not allow (layer \(row.layer) may import: \(allowed))"
        }
    }

    /// A target may import only targets of a lower layer.
    func layering() -> [String] {
        let table = rowsByTarget
        return rows.flatMap { row in
            row.mayImport.compactMap { module -> String? in
                guard let dependency = table[module], dependency.layer >= row.layer else { return nil }
                return "docs/architecture.md: \(row.target) (layer \(row.layer)) may import \(module) "
                    + "(layer \(dependency.layer)), which is not below it"
            }
        }
    }

    /// Package.swift declares for each target exactly what the table says.
    func manifestAgreement() -> [String] {
        let declared = Dictionary(manifest.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for row in rows {
            guard let target = declared[row.target] else {
                problems.append("Package.swift declares no target \(row.target), which docs/architecture.md lists")
                continue
            }
            let expected = Set(row.mayImport).subtracting(Self.toolchainModules).union(row.declaredUnused)
            let missingInManifest = expected.subtracting(target.dependencies).sorted()
            let missingInTable = target.dependencies.subtracting(expected).sorted()
            if !missingInManifest.isEmpty {
                problems.append(
                    "Package.swift: \(row.target) does not declare \(missingInManifest.joined(separator: ", ")), "
                        + "which docs/architecture.md lists")
            }
            if !missingInTable.isEmpty {
                problems.append(
                    "Package.swift: \(row.target) declares \(missingInTable.joined(separator: ", ")), "
                        + "which docs/architecture.md's row does not list")
            }
        }
        let sourceKinds: Set<String> = ["regular", "executable", "system", "macro", "plugin"]
        for target in manifest where sourceKinds.contains(target.kind) && rowsByTarget[target.name] == nil {
            problems.append("Package.swift: target \(target.name) has no row in docs/architecture.md's layer table")
        }
        return problems
    }

    /// "may import" holds only what is imported; "declared, never imported" only what is not.
    func unusedDependencies() -> [String] {
        var importedBy: [String: Set<String>] = [:]
        for found in imports { importedBy[found.target, default: []].insert(found.module) }
        return rows.flatMap { row -> [String] in
            let used = importedBy[row.target] ?? []
            let neverImported = row.mayImport.filter { !Self.toolchainModules.contains($0) && !used.contains($0) }
            let importedAfterAll = row.declaredUnused.filter(used.contains)
            return neverImported.map {
                "\(row.target) never imports \(String($0)): remove it from Package.swift and the table, "
                    + "or move it to \"declared, never imported\""
            } + importedAfterAll.map { "\(row.target) imports \($0), which docs/architecture.md lists as never imported" }
        }
    }
}
