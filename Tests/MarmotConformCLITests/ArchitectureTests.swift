import Foundation
import Testing

/// docs/architecture.md's layer table against Package.swift and the imports under Sources/, and
/// twins proving each check fails on the breakage it exists for.
@Suite struct ArchitectureTests {
    static func repositoryCheck() throws -> ArchitectureCheck {
        let root = try SourceImports.repositoryRoot()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        return ArchitectureCheck(
            rows: try LayerTable.parse(doc), manifest: try ManifestTargets.dump(root: root),
            sourceFolders: try SourceImports.targetFolders(root: root), imports: try SourceImports.all(root: root))
    }

    @Test func theRepositoryKeepsItsDeclaredLayers() throws {
        let check = try Self.repositoryCheck()
        // Guards against a check that passes because it read nothing.
        #expect(check.rows.count >= 20)
        #expect(check.manifest.contains { $0.name == "Nostr" && $0.dependencies.contains("Crypto") })
        #expect(check.imports.contains { $0.target == "ScenarioRunner" && $0.module == "Simulation" })
        let problems = check.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    // MARK: - The parsers

    @Test func theManifestDecoderReadsEveryDependencyForm() throws {
        // The shape of `swift package dump-package` (SwiftPM 6), cut to what is decoded.
        let json = """
            {"name": "p", "targets": [
              {"name": "Base", "type": "regular", "dependencies": []},
              {"name": "Top", "type": "regular", "dependencies": [
                {"byName": ["Base", null]},
                {"product": ["Crypto", "swift-crypto", null, {"platformNames": ["linux"]}]},
                {"target": ["Other", null]}]},
              {"name": "TopTests", "type": "test", "dependencies": [{"byName": ["Top", null]}]}]}
            """
        let targets = try ManifestTargets.decode(Data(json.utf8))
        #expect(
            targets == [
                ManifestTarget(name: "Base", kind: "regular", dependencies: []),
                ManifestTarget(name: "Top", kind: "regular", dependencies: ["Base", "Crypto", "Other"]),
                ManifestTarget(name: "TopTests", kind: "test", dependencies: ["Top"]),
            ])
        // A dependency in a form not seen before is an error, not a name silently dropped.
        let odd = #"{"targets": [{"name": "T", "type": "regular", "dependencies": [{}]}]}"#
        #expect(throws: DecodingError.self) { try ManifestTargets.decode(Data(odd.utf8)) }
    }

    @Test func theImportScannerFindsEveryFormAndNamesTheLine() {
        let text = """
            // import NotAnImport
            import Foundation
            @testable import GroupCore
            @_spi(Testing) @preconcurrency import Nostr
            import struct Yams.Node
            /*
            import Hidden
            */
            let x = "import Quoted"
            """
        let found = SourceImports.imports(in: text, file: "Sources/T/F.swift", target: "T")
        #expect(found.map(\.module) == ["Foundation", "GroupCore", "Nostr", "Yams"])
        #expect(found.map(\.line) == [2, 3, 4, 5])
    }

    @Test func aMalformedTableIsAnErrorWithItsLine() {
        let doc = "| target | layer | may import | declared, never imported |\n|---|---|---|---|\n| `A` | x | — | — |\n"
        #expect(throws: LayerTable.ParseError.self) { try LayerTable.parse(doc) }
        #expect(throws: LayerTable.ParseError.self) { try LayerTable.parse("no table here") }
    }

    // MARK: - Twins: each check fails on its breakage

    /// A small consistent world: Base (layer 0) ← Top (layer 1, imports Base and Foundation).
    static func fixture(
        rows: [LayerRow]? = nil, topDependencies: Set<String> = ["Base"], folders: [String] = ["Base", "Top"],
        extraImports: [ImportLine] = []
    ) -> ArchitectureCheck {
        ArchitectureCheck(
            rows: rows ?? [
                LayerRow(target: "Base", layer: 0, mayImport: [], declaredUnused: []),
                LayerRow(target: "Top", layer: 1, mayImport: ["Base", "Foundation"], declaredUnused: []),
            ],
            manifest: [
                ManifestTarget(name: "Base", kind: "regular", dependencies: []),
                ManifestTarget(name: "Top", kind: "regular", dependencies: topDependencies),
            ],
            sourceFolders: folders,
            imports: [
                ImportLine(file: "Sources/Top/A.swift", line: 1, target: "Top", module: "Base"),
                ImportLine(file: "Sources/Top/A.swift", line: 2, target: "Top", module: "Glibc"),
            ] + extraImports)
    }

    @Test func theFixtureItselfHasNoProblem() {
        #expect(Self.fixture().problems() == [])
    }

    @Test func anImportTheTableDoesNotAllowIsNamedWithFileAndLine() {
        let problems = Self.fixture(extraImports: [
            ImportLine(file: "Sources/Base/B.swift", line: 7, target: "Base", module: "Yams")
        ]).problems()
        #expect(problems.contains { $0.hasPrefix("Sources/Base/B.swift:7: Base imports Yams") })
    }

    @Test func anUpwardDependencyInTheTableIsALayeringProblem() {
        let problems = Self.fixture(rows: [
            LayerRow(target: "Base", layer: 0, mayImport: ["Top"], declaredUnused: []),
            LayerRow(target: "Top", layer: 1, mayImport: ["Base", "Foundation"], declaredUnused: []),
        ]).problems()
        #expect(problems.contains { $0.contains("Base (layer 0) may import Top (layer 1)") })
    }

    @Test func aDependencyDeclaredButNotInTheTableIsReported() {
        let problems = Self.fixture(topDependencies: ["Base", "Crypto"]).problems()
        #expect(problems.contains { $0.contains("Top declares Crypto") })
    }

    @Test func aDependencyDeclaredButNeverImportedMustBeListedAsSuch() {
        let rows = [
            LayerRow(target: "Base", layer: 0, mayImport: [], declaredUnused: []),
            LayerRow(target: "Top", layer: 1, mayImport: ["Base", "Crypto"], declaredUnused: []),
        ]
        let unlisted = Self.fixture(rows: rows, topDependencies: ["Base", "Crypto"]).problems()
        #expect(unlisted.contains { $0.hasPrefix("Top never imports Crypto") })
        let listed = [rows[0], LayerRow(target: "Top", layer: 1, mayImport: ["Base"], declaredUnused: ["Crypto"])]
        #expect(Self.fixture(rows: listed, topDependencies: ["Base", "Crypto"]).problems() == [])
    }

    @Test func aTargetFolderWithoutARowIsReported() {
        let problems = Self.fixture(folders: ["Base", "Top", "NewTarget"]).problems()
        #expect(problems.contains("Sources/NewTarget has no row in docs/architecture.md's layer table"))
    }
}
