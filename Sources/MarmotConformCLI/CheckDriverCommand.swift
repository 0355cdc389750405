// `marmot-conform check-driver`: the driver-protocol checker (docs/driver-protocol.md, "Write a driver").
import ArgumentParser
import ExternalProcessEngine
import Foundation
import ScenarioModel
import ScenarioRunner

extension MarmotConform {
    struct CheckDriver: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-driver",
            abstract: "Exercise a driver with valid and invalid requests and report what it does wrong.",
            discussion: """
                CMD is a driver command line (`check-driver 'python3 drivers/example/driver.py'`, or its words \
                unquoted) or an engine name: `swift` (our engine through `marmot-conform driver swift`), `mdk` \
                (the MDK driver with its world shim) or a name from the engines file. Prints one line per check. \
                Exit status: 0 every check holds, 1 a check fails, 64 usage.
                """)

        @Argument(parsing: .captureForPassthrough, help: "The driver command line, or an engine name.")
        var command: [String] = []

        @OptionGroup var repository: RepositoryOptions

        @Option(help: "An engines file (default: engines.yaml at the repository root if present).")
        var engines: String?

        @Option(help: ArgumentHelp("Seconds a response may take (the first, hello, may take 12 times as long).", valueName: "seconds"))
        var timeout: DriverTimeout = .standard

        func resolve() throws -> DriverCommand {
            let repo = try repository.locateOrExit()
            let context = try EngineContext.load(repo: repo, engines: engines)
            let words = command.count == 1 ? (CommandWords.split(command[0]) ?? []) : command
            guard let first = words.first else { throw usageError("check-driver needs a driver command or an engine name") }
            if words.count == 1 {
                switch EngineName(rawValue: first) {
                case .swift?: return try context.command(for: EngineSelection(kind: .driver(command: "marmot-conform driver swift")))
                case .mdk?: return try context.command(for: .mdk)
                case nil: if let defined = context.definitions[first] { return context.command(defined) }
                }
            }
            let line = words.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
            return try context.command(for: EngineSelection(kind: .driver(command: line)))
        }

        func run() async throws {
            let driver = try resolve()
            var checker = DriverChecker()
            checker.responseTimeout = .milliseconds(Int64(timeout.seconds * 1000))
            checker.startTimeout = checker.responseTimeout * 12
            Console.line("check-driver: \(driver.description)")
            let findings = await checker.check(executable: driver.executable, arguments: driver.arguments, environment: driver.environment)
            for finding in findings {
                Console.line(finding.holds ? "  ok    \(finding.check)" : "  FAIL  \(finding.check): \(finding.problem ?? "")")
            }
            let failed = findings.filter { !$0.holds }.count
            Console.line(
                failed == 0 ? "the driver passes all \(findings.count) checks" : "the driver fails \(failed) of \(findings.count) checks")
            if failed > 0 { throw ExitStatus.failure }
        }
    }
}
