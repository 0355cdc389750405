import ArgumentParser
import Foundation
import ScenarioRunner

extension MarmotConform {
    /// Writes the role-matrix scenarios and report generated from the permission table.
    struct RoleMatrixCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "role-matrix",
            abstract: "Regenerate scenarios/roles/matrix/*.yaml and docs/role-matrix.md from the permission table.")

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            let root = try repository.locateOrExit().root
            for file in RoleMatrix.files() {
                let url = root.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
                Console.line("wrote \(file.path)")
            }
        }
    }
}
