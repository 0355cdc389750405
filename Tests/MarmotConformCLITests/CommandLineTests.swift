import ConformanceTestSupport
import Foundation
import Testing

/// The CLI as a new user meets it: from any directory, with its version, exit statuses, empty
/// selections refused, and progress that reaches a pipe as each run finishes.
@Suite(.serialized) struct CommandLineTests {
    static let root = URL(fileURLWithPath: "/")

    @Test func runWorksFromTheFilesystemRootWithTimesInJUnit() throws {
        let directory = try RunAndReplayTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml")
        let output = try RunAndReplayTests.run(
            ["run", "scenarios/group-lifecycle", "--engine", "swift", "--junit", junit.path], in: Self.root)
        #expect(output.status == 0, "\(output.text)")
        #expect(output.text.contains("PASS scenarios/group-lifecycle/four-members.yaml [swift, seed 1]"), "\(output.text)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        let testcases = xml.components(separatedBy: "<testcase ").dropFirst()
        #expect(!testcases.isEmpty)
        #expect(testcases.allSatisfy { $0.prefix { $0 != ">" }.contains(" time=\"") })
    }

    @Test func rootCanBeNamedBeforeOrAfterTheCommand() throws {
        let root = Vectors.repositoryRoot.path
        let before = try RunAndReplayTests.run(["--root", root, "validate", "scenarios/group-lifecycle"], in: Self.root)
        #expect(before.status == 0, "\(before.text)")
        #expect(before.text.contains("ok scenarios/group-lifecycle/four-members.yaml"))
        let after = try RunAndReplayTests.run(["validate", "scenarios/group-lifecycle", "--root", root], in: Self.root)
        #expect(after.text == before.text)
        let wrong = try RunAndReplayTests.run(["validate", "--root", "/tmp"], in: Self.root)
        #expect(wrong.status == 64)
        #expect(wrong.text.contains("not a marmot-conform repository"))
    }

    /// The version is defined once, in Sources/MarmotConformCLI/Version.swift.
    @Test func versionIsTheOneDefinedInTheSources() throws {
        let source = try String(
            contentsOf: Vectors.repositoryRoot.appendingPathComponent("Sources/MarmotConformCLI/Version.swift"), encoding: .utf8)
        let defined = try #require(
            source.components(separatedBy: "static let current = \"").dropFirst().first?
                .components(separatedBy: "\"").first)
        let output = try RunAndReplayTests.run(["--version"], in: Self.root)
        #expect(output.status == 0)
        #expect(output.text == defined + "\n")
        #expect(defined.split(separator: ".").count == 3)
    }

    @Test func emptyFolderAndMissingPathAreUsageErrors() throws {
        let directory = try RunAndReplayTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [["run", directory.path, "--engine", "swift"], ["validate", directory.path]] {
            let empty = try RunAndReplayTests.run(arguments)
            #expect(empty.status == 64, "\(arguments[0]): \(empty.text)")
            #expect(empty.text.contains("no scenario (*.yaml, *.yml) under \(directory.path)"))
        }
        let missing = try RunAndReplayTests.run(["validate", directory.appendingPathComponent("nothing").path])
        #expect(missing.status == 64)
        #expect(missing.text.contains("no such file or folder"))
        let filtered = try RunAndReplayTests.run(["run", "scenarios/group-lifecycle", "--engine", "swift", "--filter", "no such scenario"])
        #expect(filtered.status == 64)
    }

    /// Engine, seed range and driver timeout are typed options: a bad value stops the command with the
    /// usage status before anything runs, naming the option and the value.
    @Test(arguments: [
        // A name no engines file defines (names are looked up there; docs/engines.md).
        (["--engine", "rust"], "unknown engine 'rust': built in are swift, mdk and mixed"),
        (["--engine", "driver:'unclosed"], "is invalid for '--engine <engine>'"),
        (["--seeds", "5..1"], "'5..1' is invalid for '--seeds <A..B>'"),
        (["--seeds", "1-10"], "'1-10' is invalid for '--seeds <A..B>'"),
        (["--seeds", "1..2000000"], "'1..2000000' is invalid for '--seeds <A..B>'"),
        (["--driver-timeout", "0"], "'0' is invalid for '--driver-timeout <seconds>'"),
        (["--driver-timeout", "3601"], "'3601' is invalid for '--driver-timeout <seconds>'"),
        (["--seed", "2", "--seeds", "1..3"], "give --seed or --seeds, not both"),
    ])
    func badOptionValuesAreUsageErrors(options: [String], message: String) throws {
        let output = try RunAndReplayTests.run(["run", "scenarios/group-lifecycle"] + options, in: Self.root)
        #expect(output.status == 64, "\(output.text)")
        #expect(output.text.contains(message), "\(output.text)")
        #expect(!output.text.contains("PASS"), "\(output.text)")
    }

    /// The shared runner options (root, ledger, driver timeout) reach `replay` too.
    @Test func replayTakesTheSharedRunnerOptions() throws {
        let help = try RunAndReplayTests.run(["replay", "--help"])
        for option in ["--root", "--ledger", "--driver-timeout"] { #expect(help.text.contains(option), "\(help.text)") }
        let bad = try RunAndReplayTests.run(["replay", "no-such.capsule.json", "--driver-timeout", "0"], in: Self.root)
        #expect(bad.status == 64, "\(bad.text)")
    }

    @Test func aliasBombIsRefusedWithItsPosition() throws {
        let directory = try RunAndReplayTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var yaml = "a: &a [x, x, x, x, x, x, x, x, x]\n"
        for (previous, name) in zip("abcdefgh", "bcdefghi") {
            yaml += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        let file = directory.appendingPathComponent("bomb.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let output = try RunAndReplayTests.run(["validate", file.path])
        #expect(output.status == 1)
        #expect(output.text.contains("\(file.path):1:4: YAML anchors and aliases (&a, *a) are not supported"), "\(output.text)")
    }

    @Test func helpDocumentsTheExitStatuses() throws {
        let top = try RunAndReplayTests.run(["--help"])
        #expect(top.text.contains("Exit status (every command):"))
        #expect(top.text.contains("64  usage"))
        let replay = try RunAndReplayTests.run(["replay", "--help"])
        #expect(replay.text.contains("2 they do not"))
    }

    @Test func traceFlagPrintsTheTraceStepByStepBeforeTheVerdict() throws {
        let output = try RunAndReplayTests.run(
            ["run", "scenarios/group-lifecycle/four-members.yaml", "--engine", "swift", "--trace"], in: Self.root)
        #expect(output.status == 0)
        let trace = try #require(output.text.range(of: "--- trace of scenarios/group-lifecycle/four-members.yaml [swift, seed 1]"))
        let verdict = try #require(output.text.range(of: "[1/1] PASS"))
        #expect(trace.lowerBound < verdict.lowerBound)
        #expect(output.text.contains(" arrive group->alice: EVENT"))
        let firstStep = try #require(output.text.range(of: "== step 1 (deliver) at scenarios/group-lifecycle/four-members.yaml:"))
        #expect(trace.lowerBound < firstStep.lowerBound && firstStep.lowerBound < verdict.lowerBound)
    }

    /// With stdout a pipe, the first run's line arrives while later runs are still to come: it is
    /// written when the run finishes, not when a buffer fills or the process exits.
    @Test func progressReachesAPipeAsEachRunFinishes() throws {
        let binary = try #require(RunAndReplayTests.binary)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", "scenarios/group-lifecycle/four-members.yaml", "--engine", "swift", "--seeds", "1..12"]
        process.currentDirectoryURL = Self.root
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var seen = ""
        var firstChunkWithProgress: String?
        while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
            seen += String(decoding: chunk, as: UTF8.self)
            if firstChunkWithProgress == nil, seen.contains("[1/12]") { firstChunkWithProgress = seen }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let first = try #require(firstChunkWithProgress)
        // Block-buffered output would arrive in one piece at exit, summary included.
        #expect(!first.contains("12 passed, 0 failed"), "progress arrived only at exit:\n\(first)")
        #expect(seen.contains("[12/12] "))
    }
}
