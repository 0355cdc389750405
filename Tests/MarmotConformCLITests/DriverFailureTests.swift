import ConformanceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The CLI against MDK drivers that fail, through `MARMOT_MDK_DRIVER` (a driver command the test controls).
@Suite(.serialized) struct DriverFailureTests {
    static func run(_ arguments: [String], environment: [String: String]) throws -> RunAndReplayTests.Output {
        try RunAndReplayTests.run(arguments, environment: environment)
    }

    /// The stand-in dies on the first member's create_instance: the run exits non-zero with an
    /// `error` verdict (never a skip or a pass), reports the death with the driver's own last
    /// words, and the JUnit report carries an <error>, not a <skipped>.
    @Test func driverThatDiesDuringMemberCreationIsAnErrorAndFailsTheRun() throws {
        let reports = try RunAndReplayTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: reports) }
        let junit = reports.appendingPathComponent("junit.xml").path
        let output = try Self.run(
            ["run", "scenarios/group-lifecycle", "--engine", "mdk", "--junit", junit],
            environment: ["MARMOT_MDK_DRIVER": "drivers/testing/dies-during-member-creation.py"])
        #expect(output.status == 1, "\(output.text)")
        #expect(output.text.contains("] ERROR scenarios/group-lifecycle/"), "\(output.text)")
        #expect(output.text.contains("driver exited"), "\(output.text)")
        #expect(output.text.contains("stand-in driver: dying during create_instance"), "\(output.text)")
        #expect(!output.text.contains("PASS ") && !output.text.contains("UNSUPPORTED"), "\(output.text)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<error ") && !xml.contains("<skipped"), "\(xml)")
    }

    /// An MDK driver running without the world shim is refused before any scenario runs, loudly.
    @Test(.enabled(if: PythonVenv.interpreter != nil, "no .venv: run ci/setup"))
    func driverWithoutTheWorldShimIsRefused() throws {
        let output = try Self.run(
            ["run", "scenarios/group-lifecycle", "--engine", "mdk"],
            environment: ["MARMOT_MDK_DRIVER": "/usr/bin/env -u LD_PRELOAD .venv/bin/python drivers/mdk/driver.py"])
        #expect(output.status != 0)
        #expect(output.text.contains("world_unavailable"), "\(output.text)")
        #expect(output.text.contains("world shim is not preloaded"), "\(output.text)")
        #expect(!output.text.contains("PASS "), "\(output.text)")
    }

    /// SIGTERM to the runner takes its driver down with it (the CLI kills its drivers, then exits 143).
    @Test(.enabled(if: PythonVenv.interpreter != nil, "no .venv: run ci/setup"))
    func terminatingTheRunnerEndsItsDriver() async throws {
        let binary = try #require(RunAndReplayTests.binary, "marmot-conform is not built (swift build --build-tests builds it)")
        let runner = Process()
        runner.executableURL = binary
        runner.arguments = ["run", "scenarios/group-lifecycle", "--engine", "mdk"]
        runner.currentDirectoryURL = Vectors.repositoryRoot
        let runDirectory = try RunAndReplayTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: runDirectory) }
        runner.environment = ProcessInfo.processInfo.environment.merging(["MARMOT_DRIVER_RUN_DIR": runDirectory.path]) { $1 }
        runner.standardOutput = FileHandle.nullDevice
        runner.standardError = FileHandle.nullDevice
        try runner.run()
        // Wait (on progress: the driver appearing) for the runner's driver process, up to 300 s: on
        // a loaded 2-core machine the debug runner once took over 120 s to start its first driver.
        var driver: pid_t?
        for _ in 0..<3000 where driver == nil {
            driver = Self.children(of: runner.processIdentifier).first
            if driver == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let child = try #require(driver, "the runner started no driver")
        kill(runner.processIdentifier, SIGTERM)
        runner.waitUntilExit()
        #expect(runner.terminationStatus == 128 + SIGTERM)
        var waited = 0
        while DriverLifetimeProbe.isRunning(child), waited < 600 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(!DriverLifetimeProbe.isRunning(child), "the driver outlived the terminated runner")
        if DriverLifetimeProbe.isRunning(child) { kill(child, SIGKILL) }
        // Ended by SIGTERM, the driver removed its run directory (members' databases) on the way out.
        #expect(try FileManager.default.contentsOfDirectory(atPath: runDirectory.path).isEmpty)
    }

    /// Processes whose parent is `parent` (from /proc).
    static func children(of parent: Int32) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent
        }
    }
}

/// Whether a process still runs (a zombie waiting to be reaped counts as gone).
enum DriverLifetimeProbe {
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
}
