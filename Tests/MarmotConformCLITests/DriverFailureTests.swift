import ConformanceTestSupport
import Foundation
import Testing

/// The CLI against MDK drivers that fail, through `MARMOT_MDK_DRIVER` (a driver command the test controls).
@Suite(.serialized) struct DriverFailureTests {
    static func run(_ arguments: [String], environment: [String: String]) throws -> RunAndReplayTests.Output {
        let binary = try #require(RunAndReplayTests.binary, "marmot-conform is not built (swift build --build-tests builds it)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = Vectors.repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunAndReplayTests.Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
    }

    /// The stand-in dies on the first member's create_instance: the run reports the death with the
    /// driver's own last words. (The `error` verdict and the non-zero exit are asserted where the
    /// runner defines them.)
    @Test func driverThatDiesDuringMemberCreationIsReportedWithItsStderr() throws {
        let output = try Self.run(
            ["run", "scenarios/group-lifecycle", "--engine", "mdk"],
            environment: ["MARMOT_MDK_DRIVER": "drivers/testing/dies-during-member-creation.py"])
        #expect(output.text.contains("driver exited"), "\(output.text)")
        #expect(output.text.contains("stand-in driver: dying during create_instance"), "\(output.text)")
        #expect(!output.text.contains("PASS "), "\(output.text)")
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
}
