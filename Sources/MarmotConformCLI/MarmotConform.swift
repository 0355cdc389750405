import ArgumentParser
import Foundation
import ScenarioModel
import ScenarioRunner

/// `marmot-conform`: the conformance gate's command-line front door.
@main
struct MarmotConform: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marmot-conform",
        abstract: "Conformance gate and interop bench for Marmot group messaging (MLS over Nostr).",
        discussion: """
            Works from any directory: the repository is found from the executable's location or the working \
            directory, or named with --root DIR (before or after the command). Relative paths are resolved \
            against the working directory first, then the repository root.

            \(ExitStatus.help)
            """,
        version: ToolVersion.current,
        subcommands: [
            Run.self, Replay.self, Explore.self, Trace.self, Report.self, Validate.self, List.self, Schema.self, RoleMatrixCommand.self,
            VisibilityMatrixCommand.self,
            FaultMatrixCommand.self, RestartMatrixCommand.self, CatchUpDepthCommand.self, BenchRelay.self, MergeReports.self, Bench.self,
            RelayServe.self, DriverServe.self, CheckDriver.self,
        ]
    )

    /// Accepts `--root DIR` before the command as well as after it (printed reproduce commands
    /// put it first).
    static func main() async {
        await main(LeadingRoot.moved(Array(CommandLine.arguments.dropFirst())))
    }
}

enum LeadingRoot {
    /// `--root DIR run …` → `run --root DIR …` (also `--root=DIR`); anything else unchanged.
    static func moved(_ arguments: [String]) -> [String] {
        guard let first = arguments.first else { return arguments }
        if first == "--root", arguments.count >= 3 {
            return [arguments[2], "--root", arguments[1]] + arguments.dropFirst(3)
        }
        if first.hasPrefix("--root="), arguments.count >= 2 {
            return [arguments[1], first] + arguments.dropFirst(2)
        }
        return arguments
    }
}

extension MarmotConform {
    /// Checks scenario files against the format, without running them.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check scenario files against the scenario format (errors as file:line:column: message).",
            discussion: "Exit status: 0 all valid, 1 a file is invalid, 64 a path is missing or holds no scenario.")

        @Argument(help: "Scenario files or folders (default: scenarios/).")
        var paths: [String] = ["scenarios"]

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            let repo = try repository.locateOrExit()
            let files = try ScenarioFiles.collect(paths, in: repo)
            let (scenarios, invalid) = ScenarioFiles.load(files)
            for (scenario, _) in scenarios { Console.line("ok \(scenario.file)") }
            if invalid > 0 { throw ExitStatus.failure }
        }
    }

    /// Lists the scenarios under the given paths.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List scenarios with their names and clauses.")

        @Argument(help: "Scenario files or folders (default: scenarios/).")
        var paths: [String] = ["scenarios"]

        @OptionGroup var repository: RepositoryOptions

        func run() throws {
            let repo = try repository.locateOrExit()
            let (scenarios, invalid) = ScenarioFiles.load(try ScenarioFiles.collect(paths, in: repo))
            for (scenario, _) in scenarios {
                let clauses = scenario.clauses.isEmpty ? "" : "  [\(scenario.clauses.joined(separator: "; "))]"
                Console.line(
                    "\(scenario.file)  \(scenario.name)  (\(scenario.members.count) members, \(scenario.steps.count) steps)\(clauses)")
            }
            if invalid > 0 { throw ExitStatus.failure }
        }
    }

    /// Prints the JSON Schema of scenario files.
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the JSON Schema of scenario files (the committed copy is scenarios/schema.json).")

        func run() {
            print(ScenarioSchema.json(), terminator: "")
        }
    }
}

extension RepositoryOptions {
    /// The repository, or the usage status with the reason on stderr.
    func locateOrExit() throws -> Repository {
        do {
            return try locate()
        } catch {
            throw usageError("\(error)")
        }
    }
}

/// A scenario file to load: where it is, and the name it goes by in reports and identities.
struct ScenarioFile {
    let url: URL
    let name: String
}

enum ScenarioFiles {
    /// The YAML files named by `paths` (resolved as `Repository.input` does), selected as
    /// `RunPlan.select` does (folders searched recursively in a stable order, families on a CI line
    /// of their own left out unless named). A path that does not exist, or a folder with no
    /// scenario, stops the command: an empty selection must not "pass".
    static func collect(_ paths: [String], in repo: Repository) throws -> [ScenarioFile] {
        var out: [ScenarioFile] = []
        for path in paths {
            let url = repo.input(path)
            switch RunPlan.select(url) {
            case nil:
                throw usageError("no such file or folder: \(path)")
            case .folder(let entries)?:
                guard !entries.isEmpty else { throw usageError("no scenario (*.yaml, *.yml) under \(path)") }
                out += entries.map { url.appendingPathComponent($0) }.map { ScenarioFile(url: $0, name: repo.display($0)) }
            case .file?:
                out.append(ScenarioFile(url: url, name: repo.display(url)))
            }
        }
        return out
    }

    /// Loads every file with its text (kept for failure capsules), printing each error as
    /// `file:line:column: message` on stderr; files that do not load are counted, not returned.
    /// `quiet`: count errors without printing them (a `run --jobs` worker; its parent prints them).
    static func load(_ files: [ScenarioFile], quiet: Bool = false) -> (scenarios: [(Scenario, text: String)], invalid: Int) {
        var scenarios: [(Scenario, text: String)] = []
        var invalid = 0
        for file in files {
            do {
                let text = try String(contentsOf: file.url, encoding: .utf8)
                scenarios.append((try Scenario(yaml: text, file: file.name), text))
            } catch let error as ScenarioError {
                invalid += 1
                if !quiet { Console.error("\(error)") }
            } catch {
                invalid += 1
                if !quiet { Console.error("\(file.name):1:1: cannot read the file: \(error)") }
            }
        }
        return (scenarios, invalid)
    }
}
