import ConformanceTestSupport
import Foundation
import Testing

/// Engines by name, by command and in an engines file (docs/engines.md), and our engine through
/// `marmot-conform driver swift`.
@Suite(.serialized) struct EngineSelectionTests {
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RunAndReplayTests.Output {
        try RunAndReplayTests.run(arguments, environment: environment)
    }

    static func enginesFile(_ text: String) throws -> (URL, String) {
        let directory = try RunAndReplayTests.temporaryDirectory()
        let file = directory.appendingPathComponent("engines.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return (directory, file.path)
    }

    /// The acceptance line: every scenario of these families passes through the driver with the
    /// stored outcome vectors (the vector check is part of every run) and replays byte for byte.
    @Test func ourEngineThroughItsDriverPassesWithTheSameVectors() throws {
        let output = try Self.run([
            "run", "scenarios/group-lifecycle", "scenarios/concurrent-commits", "scenarios/roles/links",
            "--engine", "driver:marmot-conform driver swift", "--check-determinism",
        ])
        #expect(output.status == 0, "\(output.text)")
        // PASS with a note: these runs' fingerprints are not pinned (they differ from in process by
        // design), which is said below the run's line and never changes its verdict.
        #expect(output.text.contains("PASS scenarios/concurrent-commits/rename-rename-race.yaml"), "\(output.text)")
        #expect(output.text.contains("  info: stored trace fingerprint"), "\(output.text)")
        #expect(output.text.contains("13 passed, 0 failed"), "\(output.text)")
        #expect(!output.text.contains("UNSUPPORTED") && !output.text.contains("FAIL "), "\(output.text)")
    }

    @Test func anUnknownEngineNameIsAUsageErrorListingTheNames() throws {
        let output = try Self.run(["run", "scenarios/group-lifecycle", "--engine", "no-such-engine"])
        #expect(output.status == 64, "\(output.text)")
        #expect(output.text.contains("unknown engine 'no-such-engine'") && output.text.contains("driver:'CMD ARGS'"), "\(output.text)")
    }

    @Test func aBadEnginesFileIsReportedAtItsPosition() throws {
        let (directory, file) = try Self.enginesFile("- name: broken\n  comand: x\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Self.run(["run", "scenarios/group-lifecycle", "--engine", "broken", "--engines", file])
        #expect(output.status == 64, "\(output.text)")
        #expect(output.text.contains("engines.yaml:2:3: unknown key 'comand' in an engine"), "\(output.text)")
    }

    /// An engines-file entry runs the suite by name; a `version` the driver does not report refuses it.
    @Test func anEnginesFileEntryRunsByNameAndItsVersionIsChecked() throws {
        let (directory, file) = try Self.enginesFile(
            """
            - name: swift-out-of-process
              command: marmot-conform
              arguments: [driver, swift]
              version: "0.1"
            - name: wrong-version
              command: marmot-conform
              arguments: [driver, swift]
              version: "9.9"
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try Self.run(["run", "scenarios/group-lifecycle", "--engine", "swift-out-of-process", "--engines", file])
        #expect(good.status == 0, "\(good.text)")
        #expect(good.text.contains("swift-out-of-process 0.1"), "\(good.text)")
        let bad = try Self.run(["run", "scenarios/group-lifecycle", "--engine", "wrong-version", "--engines", file])
        #expect(bad.status != 0 && bad.text.contains("reports version 0.1, the engines file expects 9.9"), "\(bad.text)")
        #expect(!bad.text.contains("PASS "), "\(bad.text)")
    }

    /// What an engine declares decides: the example driver declares no engine capability, so under
    /// either profile every scenario fails with the required capabilities it lacks listed (exit 1),
    /// none is skipped, errs or passes; the certification report says FAIL and lists them.
    @Test func anEngineLackingWhatTheProfileRequiresFailsCertification() throws {
        for profile in ["legacy", "current"] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(profile)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let json = directory.appendingPathComponent("run.json").path
            let output = try Self.run([
                "run", "scenarios/group-lifecycle", "--engine", "driver:python3 drivers/example/driver.py", "--profile", profile,
                "--json", json, "--capsules", directory.path,
            ])
            #expect(output.status == 1, "\(profile): \(output.text)")
            #expect(output.text.contains("FAIL ") && output.text.contains("lacks what the \(profile) profile requires"), "\(output.text)")
            #expect(output.text.contains("group.create, group.add_members"), "\(output.text)")
            #expect(
                !output.text.contains("PASS ") && !output.text.contains("UNSUPPORTED") && !output.text.contains("ERROR "), "\(output.text)")
            let report = try Self.run(["report", json])
            #expect(report.status == 0, "\(report.text)")
            #expect(report.text.contains("Certification for profile `\(profile)`: **FAIL: the engine lacks capabilities"), "\(report.text)")
            #expect(report.text.contains("profile.\(profile)") == (profile == "current"), "\(report.text)")
        }
    }

    /// The matrix over our engine in process and out of process: all 16 assignments of a
    /// four-member scenario, printed and written as Markdown and JSON.
    @Test func theMatrixRunsEveryAssignmentAndWritesMarkdownAndJSON() throws {
        let (directory, file) = try Self.enginesFile("- name: sd\n  command: marmot-conform\n  arguments: [driver, swift]\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let markdown = directory.appendingPathComponent("matrix.md")
        let json = directory.appendingPathComponent("matrix.json")
        let output = try Self.run([
            "run", "scenarios/group-lifecycle/four-members.yaml", "--matrix", "--engines", "swift,sd", "--engines", file,
            "--matrix-md", markdown.path, "--matrix-json", json.path,
        ])
        #expect(output.status == 0, "\(output.text)")
        #expect(output.text.contains("16 assignment(s), all assignments") && output.text.contains("16 cell(s): 16 pass"), "\(output.text)")
        let table = try String(contentsOf: markdown, encoding: .utf8)
        #expect(table.contains("| scenarios/group-lifecycle/four-members.yaml | all | pass |"), "\(table)")
        #expect(table.contains("`swift·sd·sd·swift`"), "\(table)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let rows = try #require(decoded["rows"] as? [[String: Any]])
        #expect((rows.first?["cells"] as? [Any])?.count == 16)
    }
}
