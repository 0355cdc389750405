import ConformanceTestSupport
import Foundation
import Testing

/// `run --jobs N`, `run --shard K/N` and `merge-reports` give the reports of a plain run (timings
/// apart), and a worker that dies makes its run an `error`, never a pass.
@Suite(.serialized) struct ParallelRunTests {
    typealias Output = RunAndReplayTests.Output

    /// Two small families over two seeds, plus a broken copy (a failing run with a capsule).
    struct Fixture {
        let directory: URL
        let broken: URL
        var selection: [String] {
            [
                "run", "scenarios/mip02-timing", "scenarios/group-lifecycle/four-members.yaml", broken.path,
                "--engine", "swift", "--seeds", "1..2", "--check-determinism", "--capsules",
                directory.appendingPathComponent("capsules").path,
            ]
        }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        static func make() throws -> Fixture {
            let directory = try RunAndReplayTests.temporaryDirectory()
            let original = try String(
                contentsOf: Vectors.repositoryRoot.appendingPathComponent("scenarios/mip02-timing/welcome-waits-for-ok.yaml"),
                encoding: .utf8)
            let broken = original.replacingOccurrences(
                of: "bob: { chats: [{ name: Team, members: [alice, bob, carol] }] }",
                with: "bob: { chats: [{ name: Team, members: [alice, bob, dave] }] }")
            try #require(broken != original)
            let file = directory.appendingPathComponent("broken.yaml")
            try broken.write(to: file, atomically: true, encoding: .utf8)
            return Fixture(directory: directory, broken: file)
        }
    }

    /// The report with every wall-clock figure removed: `seconds` in JSON, `time` in JUnit,
    /// `(0.42 s)` and the throughput line on the console.
    static func untimed(_ text: String) throws -> String {
        var out = text
        for pattern in [#""seconds" : [0-9.e+-]+"#, #"time="[0-9.]+""#, #"\([0-9.]+ s\)"#, #"throughput: .*"#] {
            out = out.replacing(try Regex(pattern), with: "")
        }
        return out
    }

    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func jobsTwoWritesTheReportsOfJobsOne() throws {
        let fixture = try Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let capsule = fixture.path("capsules/broken-swift-seed2.capsule.json")
        let one = try RunAndReplayTests.run(fixture.selection + ["--json", fixture.path("1.json"), "--junit", fixture.path("1.xml")])
        let capsuleOne = try Self.read(capsule)
        try FileManager.default.removeItem(atPath: capsule)
        let two = try RunAndReplayTests.run(
            fixture.selection + ["--jobs", "2", "--json", fixture.path("2.json"), "--junit", fixture.path("2.xml")])
        #expect(one.status == 1 && two.status == 1, "\(one.text)\n\(two.text)")
        #expect(one.text.contains("] FAIL ") && one.text.contains("] PASS "), "\(one.text)")
        #expect(try Self.untimed(one.text) == Self.untimed(two.text), "\(one.text)\n----\n\(two.text)")
        #expect(try Self.untimed(Self.read(fixture.path("1.json"))) == Self.untimed(Self.read(fixture.path("2.json"))))
        #expect(try Self.untimed(Self.read(fixture.path("1.xml"))) == Self.untimed(Self.read(fixture.path("2.xml"))))
        #expect(try Self.read(capsule) == capsuleOne, "the capsule a worker writes is the one a plain run writes")
    }

    @Test func shardsMergeIntoTheUnshardedReport() throws {
        let fixture = try Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let whole = try RunAndReplayTests.run(
            fixture.selection + ["--json", fixture.path("whole.json"), "--junit", fixture.path("whole.xml")])
        #expect(whole.status == 1)
        var shardTexts: [String] = []
        for (index, jobs) in [(1, "1"), (2, "2"), (3, "1")] {
            let part = try RunAndReplayTests.run(
                fixture.selection + ["--shard", "\(index)/3", "--jobs", jobs, "--json", fixture.path("\(index).json")])
            shardTexts.append(part.text)
        }
        // Every unit ran exactly once across the shards.
        let lines = shardTexts.joined().split(separator: "\n").filter { $0.hasPrefix("[") }
        let wholeLines = whole.text.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(lines.count == wholeLines.count, "\(shardTexts)")
        let merged = try RunAndReplayTests.run(
            [
                "merge-reports", fixture.path("3.json"), fixture.path("1.json"), fixture.path("2.json"),
                "--json", fixture.path("merged.json"), "--junit", fixture.path("merged.xml"),
            ])
        #expect(merged.status == 1, "a failing run in a shard fails the merge: \(merged.text)")
        #expect(try Self.untimed(Self.read(fixture.path("whole.json"))) == Self.untimed(Self.read(fixture.path("merged.json"))))
        #expect(try Self.untimed(Self.read(fixture.path("whole.xml"))) == Self.untimed(Self.read(fixture.path("merged.xml"))))
        let incomplete = try RunAndReplayTests.run([
            "merge-reports", fixture.path("1.json"), fixture.path("2.json"), "--json", fixture.path("x.json"),
        ])
        #expect(incomplete.status == 64 && incomplete.text.contains("missing shard(s) 3/3"), "\(incomplete.text)")
        let plain = try RunAndReplayTests.run(["merge-reports", fixture.path("whole.json"), "--json", fixture.path("y.json")])
        #expect(plain.status == 64 && plain.text.contains("not a shard's report"), "\(plain.text)")
    }

    @Test func aWorkerThatDiesMakesItsRunAnErrorNeverAPass() throws {
        let fixture = try Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let output = try RunAndReplayTests.run(
            [
                "run", "scenarios/mip02-timing/welcome-waits-for-ok.yaml", "scenarios/group-lifecycle/four-members.yaml", "--engine",
                "swift", "--seeds", "1..2",
                "--jobs", "2", "--json", fixture.path("r.json"),
            ],
            environment: ["MARMOT_CONFORM_WORKER_EXIT_ON": "welcome-waits-for-ok"])
        #expect(output.status == 1, "\(output.text)")
        let line = try #require(output.text.split(separator: "\n").first { $0.contains("welcome-waits-for-ok.yaml [") })
        #expect(line.contains("] ERROR "), "\(output.text)")
        #expect(output.text.contains("error: worker process answered"), "\(output.text)")
        #expect(output.text.contains("ended (exited(70)) before reporting it"), "\(output.text)")
        // The other runs went on, on a fresh worker, and passed.
        let others = output.text.split(separator: "\n").filter { $0.hasPrefix("[") && !$0.contains("welcome-waits-for-ok") }
        #expect(others.count == 2 && others.allSatisfy { $0.contains("] PASS ") }, "\(output.text)")
        let json = try Self.read(fixture.path("r.json"))
        #expect(json.contains(#""verdict" : "error""#), "\(json)")
    }
}
