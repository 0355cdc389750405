// How an engine's driver is started: the built-in MDK driver, an engines-file entry, or a
// `driver:` command line (docs/engines.md).
import Foundation
import ScenarioModel
import ScenarioRunner

/// A driver process to start: its program, arguments and environment.
struct DriverCommand: CustomStringConvertible {
    /// The engine's name in messages (`mdk`, an engines-file name, `driver:…`).
    var name: String
    var executable: String
    var arguments: [String]
    var environment: [String: String?]
    /// The version `hello` must report (an engines-file `version`).
    var expectedVersion: String?

    static let mdkOverrideVariable = "MARMOT_MDK_DRIVER"

    var description: String { ([executable] + arguments).joined(separator: " ") }

    /// MDK 0.8.0: `ROOT/.venv/bin/python ROOT/drivers/mdk/driver.py` with the world shim
    /// `ROOT/.venv/lib/libworldshim.so` preloaded (all made by ci/setup), by absolute paths from the
    /// repository root, so it starts from any directory. `MARMOT_MDK_DRIVER` names another command
    /// (split like a `driver:` command), e.g. a stand-in driver a test controls; the shim is still
    /// preloaded when present, and the command must pass the same world check.
    static func mdk(root: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Self {
        let shim = root.appendingPathComponent(".venv/lib/libworldshim.so").standardizedFileURL.path
        var variables: [String: String?] = ["PYTHONHASHSEED": "0"]
        if FileManager.default.fileExists(atPath: shim) { variables["LD_PRELOAD"] = shim }
        if let custom = environment[mdkOverrideVariable], let words = CommandWords.split(custom), let first = words.first {
            return Self(name: EngineName.mdk.rawValue, executable: first, arguments: Array(words.dropFirst()), environment: variables)
        }
        let python = root.appendingPathComponent(".venv/bin/python").path
        let driver = root.appendingPathComponent("drivers/mdk/driver.py").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Engines.Unavailable(description: "no Python at \(python): run ci/setup (it creates .venv with mdk-python)")
        }
        guard FileManager.default.fileExists(atPath: driver) else {
            throw Engines.Unavailable(description: "no MDK driver at \(driver)")
        }
        guard variables["LD_PRELOAD"] != nil else {
            throw Engines.Unavailable(description: "no world shim at \(shim): run ci/setup (MDK runs only on the world's clock and seed)")
        }
        return Self(name: EngineName.mdk.rawValue, executable: python, arguments: [driver], environment: variables)
    }
}

/// Where engine names are looked up: the engines file and the directories relative commands start from.
struct EngineContext {
    let repo: Repository
    let definitions: EngineDefinitions
    /// The engines file the definitions came from (for relative commands), if any.
    let file: URL?

    /// The default engines file: `engines.yaml` at the repository root, when present.
    static let defaultFile = "engines.yaml"

    /// Loads `--engines FILE` (which must exist), else the repository's `engines.yaml` if present.
    static func load(repo: Repository, engines: String?) throws -> EngineContext {
        let url = engines.map(repo.input) ?? repo.root.appendingPathComponent(defaultFile)
        guard FileManager.default.fileExists(atPath: url.path) else {
            if let engines { throw usageError("no such engines file: \(engines)") }
            return EngineContext(repo: repo, definitions: EngineDefinitions(entries: []), file: nil)
        }
        do {
            let text = try String(contentsOf: url, encoding: .utf8)
            return EngineContext(repo: repo, definitions: try EngineDefinitions(yaml: text, file: repo.display(url)), file: url)
        } catch let error as ScenarioError {
            throw usageError("\(error)")
        } catch {
            throw usageError("\(repo.display(url)):1:1: cannot read the engines file: \(error)")
        }
    }

    /// How to start `engine`'s driver.
    func command(for engine: EngineSelection) throws -> DriverCommand {
        switch engine.kind {
        case .builtIn(.swift), .mixed, .assignment:
            throw Engines.Unavailable(description: "\(engine.rawValue) has no driver")
        case .builtIn(.mdk):
            if let defined = definitions[EngineName.mdk.rawValue] { return command(defined) }
            return try DriverCommand.mdk(root: repo.root)
        case .named(let name):
            guard let defined = definitions[name] else {
                let builtIn = EngineName.allCases.map(\.rawValue) + [EngineSelection.mixedWord]
                let known = (builtIn + definitions.entries.map(\.name)).joined(separator: ", ")
                throw usageError(
                    "unknown engine '\(name)': built in are \(builtIn.dropLast().joined(separator: ", ")) and \(EngineSelection.mixedWord); "
                        + (file.map { "\(repo.display($0)) defines \(definitions.entries.map(\.name).joined(separator: ", "))" }
                            ?? "no engines file (engines.yaml or --engines FILE)")
                        + " (known: \(known)); a one-off driver is --engine driver:'CMD ARGS'")
            }
            return command(defined)
        case .driver(let line):
            let words = CommandWords.split(line) ?? []
            return DriverCommand(
                name: engine.rawValue, executable: Self.program(words[0], relativeTo: repo.workingDirectory),
                arguments: Array(words.dropFirst()),
                environment: [:])
        }
    }

    func command(_ definition: EngineDefinition) -> DriverCommand {
        let base = file?.deletingLastPathComponent() ?? repo.root
        var environment: [String: String?] = [:]
        for (key, value) in definition.environment { environment[key] = value }
        return DriverCommand(
            name: definition.name, executable: Self.program(definition.command, relativeTo: base), arguments: definition.arguments,
            environment: environment, expectedVersion: definition.version)
    }

    /// A command's program: `marmot-conform` is this executable (so `driver:'marmot-conform driver
    /// swift'` works from a clean clone without installing it), a relative path is taken from
    /// `base`, a bare name is looked up on PATH when started.
    static func program(_ word: String, relativeTo base: URL) -> String {
        if word == "marmot-conform", let own = Repository.executable { return own.path }
        guard word.contains("/"), !word.hasPrefix("/") else { return word }
        return URL(fileURLWithPath: word, relativeTo: base).standardizedFileURL.path
    }
}
