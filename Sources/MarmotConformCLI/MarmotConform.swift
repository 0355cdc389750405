import ArgumentParser
import Foundation
import ScenarioRunner

/// `marmot-conform`: the conformance gate's command-line front door.
@main
struct MarmotConform: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marmot-conform",
        abstract: "Conformance gate and interop bench for Marmot group messaging (MLS over Nostr).",
        subcommands: [Run.self, Replay.self, Validate.self, List.self, Schema.self, RoleMatrixCommand.self, BenchRelay.self, RelayServe.self]
    )
}

extension MarmotConform {
    /// Checks scenario files against the format, without running them.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check scenario files against the scenario format (errors as file:line:column: message).")

        @Argument(help: "Scenario files or folders.")
        var paths: [String]

        func run() throws {
            let files = try ScenarioFiles.collect(paths)
            let (scenarios, invalid) = ScenarioFiles.load(files)
            for (scenario, _) in scenarios { print("ok \(scenario.file)") }
            if invalid > 0 { throw ExitCode.failure }
        }
    }

    /// Lists the scenarios under the given paths.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List scenarios with their names and clauses.")

        @Argument(help: "Scenario files or folders (default: scenarios/).")
        var paths: [String] = ["scenarios"]

        func run() throws {
            let (scenarios, invalid) = ScenarioFiles.load(try ScenarioFiles.collect(paths))
            for (scenario, _) in scenarios {
                let clauses = scenario.clauses.isEmpty ? "" : "  [\(scenario.clauses.joined(separator: "; "))]"
                print("\(scenario.file)  \(scenario.name)  (\(scenario.members.count) members, \(scenario.steps.count) steps)\(clauses)")
            }
            if invalid > 0 { throw ExitCode.failure }
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

enum ScenarioFiles {
    struct MissingPath: Error, CustomStringConvertible {
        let path: String
        var description: String { "no such file or folder: \(path)" }
    }

    /// The YAML files named by `paths`, folders searched recursively, in a stable order.
    static func collect(_ paths: [String]) throws -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { throw MissingPath(path: path) }
            if isDir.boolValue {
                let entries = (try? fm.subpathsOfDirectory(atPath: path)) ?? []
                out += entries.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                    .map { (path as NSString).appendingPathComponent($0) }
            } else {
                out.append(path)
            }
        }
        return out
    }

    /// Loads every file with its text (kept for failure capsules), printing each error as
    /// `file:line:column: message` on stderr; files that do not load are counted, not returned.
    static func load(_ files: [String]) -> (scenarios: [(Scenario, text: String)], invalid: Int) {
        var scenarios: [(Scenario, text: String)] = []
        var invalid = 0
        for file in files {
            do {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                scenarios.append((try Scenario(yaml: text, file: file), text))
            } catch let error as ScenarioError {
                invalid += 1
                FileHandle.standardError.write(Data("\(error)\n".utf8))
            } catch {
                invalid += 1
                FileHandle.standardError.write(Data("\(file):1:1: cannot read the file: \(error)\n".utf8))
            }
        }
        return (scenarios, invalid)
    }
}
