import ArgumentParser
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
            let written = try GeneratedFamily.write(CatchUpDepth.files(), under: root, ownedFolder: CatchUpDepth.folder)
            Console.line("wrote \(written) files (\(CatchUpDepth.cellCount) cells) under \(CatchUpDepth.folder) and docs/catch-up-depth.md")
        }
    }
}
