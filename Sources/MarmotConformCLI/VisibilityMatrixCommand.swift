import ArgumentParser
import ScenarioRunner

extension MarmotConform {
    /// Writes the visibility-matrix scenarios and report generated from their table.
    struct VisibilityMatrixCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "visibility-matrix",
            abstract: "Regenerate scenarios/visibility/*.yaml and docs/visibility-matrix.md from the visibility table.")

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            let root = try repository.locateOrExit().root
            let files = VisibilityMatrix.files()
            try GeneratedFamily.write(files, under: root, ownedFolder: "scenarios/visibility")
            for file in files { Console.line("wrote \(file.path)") }
        }
    }
}
