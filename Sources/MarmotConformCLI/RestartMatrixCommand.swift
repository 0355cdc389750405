import ArgumentParser
import ScenarioRunner

extension MarmotConform {
    /// Writes the restart-matrix scenarios and report generated from the table of flows and crash
    /// points, and deletes matrix scenarios the table no longer generates.
    struct RestartMatrixCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restart-matrix",
            abstract: "Regenerate scenarios/restart-matrix/ and docs/restart-matrix.md from the table of flows and crash points.")

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            let root = try repository.locateOrExit().root
            let written = try GeneratedFamily.write(RestartMatrix.files(), under: root, ownedFolder: RestartMatrix.folder)
            Console.line(
                "wrote \(written) files (\(RestartMatrix.cellCount) cells) under \(RestartMatrix.folder) and docs/restart-matrix.md")
        }
    }
}
