import ArgumentParser
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
            let written = try GeneratedFamily.write(FaultMatrix.files(), under: root, ownedFolder: FaultMatrix.folder)
            Console.line("wrote \(written) files (\(FaultMatrix.cellCount) cells) under \(FaultMatrix.folder) and docs/fault-matrix.md")
        }
    }
}
