import ArgumentParser
import Foundation
import ScenarioRunner

extension MarmotConform {
    /// Writes the fault-matrix scenarios and report generated from the table of flows, points and
    /// faults, and deletes matrix scenarios the table no longer generates (a pruned cell).
    struct FaultMatrixCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fault-matrix",
            abstract: "Regenerate scenarios/fault-matrix/ and docs/fault-matrix.md from the table of flows, points and faults.")

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            let root = try repository.locateOrExit().root
            let files = FaultMatrix.files()
            let generated = Set(files.map(\.path))
            let folder = root.appendingPathComponent(FaultMatrix.folder)
            let existing = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".yaml") }.map { "\(FaultMatrix.folder)/\($0)" }
            for stale in existing.sorted() where !generated.contains(stale) {
                try FileManager.default.removeItem(at: root.appendingPathComponent(stale))
                Console.line("removed \(stale)")
            }
            for file in files {
                let url = root.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
            }
            Console.line("wrote \(files.count) files (\(FaultMatrix.cellCount) cells) under \(FaultMatrix.folder) and docs/fault-matrix.md")
        }
    }
}
