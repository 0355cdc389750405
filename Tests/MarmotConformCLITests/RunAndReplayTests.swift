import ConformanceTestSupport
import Foundation
import Testing

/// Runs the built `marmot-conform` binary as a user would, on our deterministic engine.
@Suite(.serialized) struct RunAndReplayTests {
    struct Output {
        let status: Int32
        let text: String
    }

    /// The binary sits next to the test bundle in SwiftPM's build folder.
    static var binary: URL? {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
            Vectors.repositoryRoot.appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("marmot-conform") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the CLI (or `executable`) in `directory`, with `environment` added to ours.
    static func run(
        _ arguments: [String], in directory: URL = Vectors.repositoryRoot, executable: URL? = nil, environment: [String: String] = [:]
    ) throws -> Output {
        let binary = try #require(Self.binary, "marmot-conform is not built (swift build --build-tests builds it)")
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marmot-conform-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Also the certification report of that whole run: its clause coverage lists every clause any
    /// scenario of the run cites (issue 15's acceptance line).
    @Test func shippedScenariosPassOnTheSwiftEngineWithDeterminismChecked() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("run.json")
        let markdown = directory.appendingPathComponent("report.md")
        let output = try Self.run(["run", "--engine", "swift", "--check-determinism", "--json", json.path])
        #expect(output.status == 0, "\(output.text)")
        #expect(output.text.contains(" passed, 0 failed"))
        let report = try Self.run(["report", json.path, "--md", markdown.path])
        #expect(report.status == 0, "\(report.text)")
        let text = try String(contentsOf: markdown, encoding: .utf8)
        let cited = try CitedClauses.under([Vectors.repositoryRoot.appendingPathComponent("scenarios")])
        #expect(cited.count > 30, "read too few clauses")
        let missing = cited.filter { !text.contains("\n| \($0) |") }
        #expect(missing.isEmpty, "clauses cited by scenarios but missing from the report: \(missing.sorted())")
        #expect(text.contains("### Spec texts") && !text.contains(" | unknown |"), "a cited spec document has no known text and version")
    }

    @Test func brokenCopyFailsWithADiffAndACapsuleThatReplayReproduces() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try String(
            contentsOf: Vectors.repositoryRoot.appendingPathComponent("scenarios/mip02-timing/welcome-waits-for-ok.yaml"), encoding: .utf8)
        // The deliberate mistake: bob is expected to see dave, who was never added.
        let broken = original.replacingOccurrences(
            of: "bob: { chats: [{ name: Team, members: [alice, bob, carol] }] }",
            with: "bob: { chats: [{ name: Team, members: [alice, bob, dave] }] }")
        try #require(broken != original)
        let file = directory.appendingPathComponent("broken.yaml")
        try broken.write(to: file, atomically: true, encoding: .utf8)
        let capsules = directory.appendingPathComponent("capsules")

        let failed = try Self.run(["run", file.path, "--engine", "swift", "--seed", "3", "--capsules", capsules.path])
        #expect(failed.status == 1)
        #expect(failed.text.contains(#"bob.chats[0].members[2]: expected "dave", observed "carol""#), "\(failed.text)")
        #expect(failed.text.contains("MIP-01 \"Group State Changes\""))
        // The reproduce command names the binary and the file by absolute paths, so it works as printed.
        let reproduce = try #require(
            failed.text.split(separator: "\n").first { $0.contains("reproduce: ") }?
                .components(separatedBy: "reproduce: ").last)
        #expect(reproduce.hasPrefix("/") && reproduce.hasSuffix(" run \(file.path) --engine swift --seed 3"), "\(reproduce)")
        let capsule = capsules.appendingPathComponent("broken-swift-seed3.capsule.json")
        #expect(FileManager.default.fileExists(atPath: capsule.path))

        let again = try Self.run(
            ["-c", reproduce + " --capsules " + directory.appendingPathComponent("again").path],
            in: URL(fileURLWithPath: "/"), executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(again.status == 1)
        #expect(again.text.contains(#"bob.chats[0].members[2]: expected "dave", observed "carol""#), "\(again.text)")

        let replayed = try Self.run(["replay", capsule.path, "--ledger", "known-defects.yaml"])
        #expect(replayed.status == 1)
        #expect(replayed.text.contains("reproduced: the same"), "\(replayed.text)")

        // The capsule drawn: a page with an inline SVG (no script) and Mermaid text with the failure.
        let page = directory.appendingPathComponent("trace.html")
        let mermaid = directory.appendingPathComponent("trace.mmd")
        let drawn = try Self.run(["trace", capsule.path, "--html", page.path, "--mermaid", mermaid.path], in: URL(fileURLWithPath: "/"))
        #expect(drawn.status == 0, "\(drawn.text)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<svg") && !html.contains("<script"))
        let text = try String(contentsOf: mermaid, encoding: .utf8)
        #expect(text.hasPrefix("sequenceDiagram\n"))
        #expect(text.contains("FAIL member bob: chats"))
    }

    @Test func malformedScenarioIsReportedAtItsPosition() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.yaml")
        try "name: x\nmembers:\n  - { label: alice }\nsteps:\n  - send: { by: alice, txt: hi }\n".write(
            to: file, atomically: true, encoding: .utf8)
        let output = try Self.run(["validate", file.path])
        #expect(output.status != 0)
        #expect(output.text.contains("\(file.path):5:24: unknown key 'txt' in step 'send' (did you mean 'text'?)"))
    }
}
