import ArgumentParser
import Foundation
import ScenarioRunner

extension MarmotConform {
    /// Writes the catch-up-depth scenarios and report generated from its table, and deletes
    /// scenarios the table no longer generates (a cell the covering selection dropped).
    struct CatchUpDepthCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "catch-up-depth",
            abstract: "Regenerate scenarios/catch-up-depth/ and docs/catch-up-depth.md from the table of catch-up cells.")

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            let root = try repository.locateOrExit().root
            let files = CatchUpDepth.files()
            let generated = Set(files.map(\.path))
            let folder = root.appendingPathComponent(CatchUpDepth.folder)
            let existing = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".yaml") }.map { "\(CatchUpDepth.folder)/\($0)" }
            for stale in existing.sorted() where !generated.contains(stale) {
                try FileManager.default.removeItem(at: root.appendingPathComponent(stale))
                Console.line("removed \(stale)")
            }
            for file in files {
                let url = root.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
            }
            Console.line("wrote \(files.count) files (\(CatchUpDepth.cellCount) cells) under \(CatchUpDepth.folder) and docs/catch-up-depth.md")
        }
    }
}
