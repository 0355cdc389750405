import ArgumentParser
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
            let files = RoleMatrix.files()
            try GeneratedFamily.write(files, under: root)
            for file in files { Console.line("wrote \(file.path)") }
        }
    }
}
