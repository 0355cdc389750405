import ConformanceTestSupport
import Foundation
import ScenarioRunner
import Testing

/// The staleness check every generated family shares: what the generator gives is what is
/// committed, and (for a family that owns its folder) no committed scenario is left that the
/// generator no longer gives.
enum GeneratedFileChecks {
    static func expectCommitted(
        _ files: [GeneratedFile], ownedFolder: String? = nil, command: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for file in files {
            let committed = try? String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(file.path), encoding: .utf8)
            #expect(committed == file.text, "\(file.path) is stale: run marmot-conform \(command)", sourceLocation: sourceLocation)
        }
        guard let ownedFolder else { return }
        let folder = Vectors.repositoryRoot.appendingPathComponent(ownedFolder)
        let committed = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".yaml") }.map { "\(ownedFolder)/\($0)" }
        #expect(
            Set(committed) == Set(files.map(\.path).filter { $0.hasSuffix(".yaml") }), "run marmot-conform \(command)",
            sourceLocation: sourceLocation)
    }
}
