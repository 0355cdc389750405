// Typed command-line values and the options shared by the commands that run scenarios.
//
// ArgumentParser parses and checks each value, so a bad one stops the command before anything runs
// with the usage status (64) and a message naming the option and what it takes; no command checks
// strings by hand. The run request (`RunRequest`) is built only here, for `run` and `replay` alike.
import ArgumentParser
import EngineInterface
import ExternalProcessEngine
import Foundation
import ScenarioRunner

/// An inclusive range of world seeds, written `A..B` (`1..200`): A ≤ B, at most a million seeds.
struct SeedRange: ExpressibleByArgument, Equatable {
    static let maximumCount: UInt64 = 1_000_000

    let seeds: ClosedRange<UInt64>

    init?(argument: String) {
        let parts = argument.components(separatedBy: "..")
        guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low <= high,
            high - low < Self.maximumCount
        else { return nil }
        seeds = low...high
    }

    var defaultValueDescription: String { "\(seeds.lowerBound)..\(seeds.upperBound)" }
}

/// `--profile`: a Marmot profile by name (`legacy`, `current`) or by the name of the rule toggle it
/// replaced (`mdk-0.8.0` → legacy, `marmot-current` → current), which is accepted with a note.
struct ProfileArgument: ExpressibleByArgument, Equatable {
    let profile: MarmotProfile
    /// The name as given.
    let name: String

    init(_ profile: MarmotProfile) {
        self.profile = profile
        name = profile.rawValue
    }

    init?(argument: String) {
        guard let profile = MarmotProfile(named: argument) else { return nil }
        self.profile = profile
        name = argument
    }

    var defaultValueDescription: String { profile.rawValue }
    static var allValueStrings: [String] { MarmotProfile.allCases.map(\.rawValue) }
}

/// How many seconds an engine driver may go without progress before its request fails: (0, 3600].
struct DriverTimeout: ExpressibleByArgument, Equatable {
    static let standard = DriverTimeout(checked: Double(ProgressDeadline.defaultSilence.components.seconds))

    let seconds: Double

    private init(checked seconds: Double) { self.seconds = seconds }

    init?(argument: String) {
        guard let seconds = Double(argument), seconds > 0, seconds <= 3600 else { return nil }
        self.seconds = seconds
    }

    var deadline: ProgressDeadline { ProgressDeadline(silence: .milliseconds(Int64(seconds * 1000))) }

    var defaultValueDescription: String { seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)" }
}

/// The options of every command that runs scenarios on engines (`run`, `replay`).
struct RunnerOptions: ParsableArguments {
    @OptionGroup var repository: RepositoryOptions

    @Option(help: "The known-defects ledger (default: the repository's known-defects.yaml).")
    var ledger: String?

    @Option(
        help: ArgumentHelp(
            "An engines file (FILE.yaml: engines by name, docs/engines.md; default: engines.yaml at the repository root if present) "
                + "or, with --matrix, the engines to assign (swift,mdk). May be given twice, once for each.",
            valueName: "FILE.yaml|A,B"))
    var engines: [EnginesArgument] = []

    /// The engines file named with `--engines`, if any.
    var enginesFile: String? { engines.compactMap(\.file).last }

    /// The engine list named with `--engines`, if any.
    var engineList: EngineList? { engines.compactMap(\.list).last }

    /// The engines file and the directories engine commands are resolved from.
    func engineContext(_ repo: Repository) throws -> EngineContext {
        try EngineContext.load(repo: repo, engines: enginesFile)
    }

    @Option(
        help: ArgumentHelp(
            "Seconds an engine driver may go without progress (no output, no CPU time) before its request fails (at most 3600).",
            valueName: "seconds"))
    var driverTimeout: DriverTimeout = .standard

    @Option(
        name: .customLong("profile"),
        help: ArgumentHelp(
            "The Marmot profile of every member without one of its own (legacy: MIP-00…03 as MDK 0.8.0 speaks them; current: the adopted "
                + "spec). Scenarios that do not apply to it are skipped as not applicable; an engine that does not speak it makes a "
                + "scenario unsupported; checks of rules it does not hold are reported (info), not judged. "
                + "The old names mdk-0.8.0 and marmot-current are accepted for legacy and current.",
            valueName: MarmotProfile.allCases.map(\.rawValue).joined(separator: "|")))
    var profileChoice = ProfileArgument(.standard)

    /// The run's profile (`--profile`).
    var profile: MarmotProfile { profileChoice.profile }

    /// The repository and the ledger file, resolved against the working directory the command was
    /// started in (call before `Repository.enter()`).
    func locate() throws -> (repo: Repository, ledger: URL) {
        let repo = try repository.locateOrExit()
        return (repo, repo.input(ledger ?? RunPlan.ledgerFile))
    }

    /// What the runner needs for one invocation; `replay` passes no vector update and no
    /// determinism check, so that every recorded check is re-judged by the same pipeline as `run`.
    func request(
        repo: Repository, ledger: URL, selection: EngineSelection, seeds: [UInt64], capsules: URL, versions: [String: String],
        updateVectors: Bool = false, checkDeterminism: Bool = false
    ) throws -> RunRequest {
        var request = RunRequest(
            selection: selection, seeds: seeds, updateVectors: updateVectors, checkDeterminism: checkDeterminism,
            vectorsDirectory: RunPlan.vectorsDirectory(root: repo.root), capsuleDirectory: capsules,
            ledger: try RunPlan.ledger(at: ledger), engineVersions: versions, today: Today.string, commandName: repo.command)
        request.reproducePath = repo.absolutePath
        request.profile = profile
        if let note = MarmotProfile.oldNameNote(profileChoice.name) { Console.line(note) }
        return request
    }
}

/// One `--engines` value: an engines file (`*.yaml`, `*.yml`) or a list of engines (`swift,mdk`).
struct EnginesArgument: ExpressibleByArgument {
    let file: String?
    let list: EngineList?

    init?(argument: String) {
        if argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") {
            file = argument
            list = nil
        } else if let engines = EngineList(argument: argument) {
            file = nil
            list = engines
        } else {
            return nil
        }
    }
}
