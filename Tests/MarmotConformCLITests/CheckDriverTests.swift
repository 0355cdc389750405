import ConformanceTestSupport
import Foundation
import Testing

/// `marmot-conform check-driver` (docs/engines.md): it passes our drivers and names what a broken
/// one does wrong; and the example driver of docs/driver-protocol.md passes with every line run.
@Suite(.serialized) struct CheckDriverTests {
    @Test func ourSwiftDriverPasses() throws {
        let output = try RunAndReplayTests.run(["check-driver", "swift"])
        #expect(output.status == 0, "\(output.text)")
        #expect(output.text.contains("the driver passes all"), "\(output.text)")
    }

    @Test(.enabled(if: PythonVenv.interpreter != nil, "no .venv: run ci/setup"))
    func theMDKDriverPasses() throws {
        let output = try RunAndReplayTests.run(["check-driver", "mdk"])
        #expect(output.status == 0, "\(output.text)")
        #expect(output.text.contains("create_key_package answers"), "\(output.text)")
    }

    /// The twin: a driver that gets the protocol wrong fails, each fault named.
    @Test func aBrokenDriverFailsWithItsReasons() throws {
        let output = try RunAndReplayTests.run(["check-driver", "--timeout", "2", "drivers/testing/broken-driver.py"])
        #expect(output.status == 1, "\(output.text)")
        for expected in [
            "FAIL  a line that is not JSON is bad_request under id null: wrote a line that is not a JSON object",
            "FAIL  a request whose id is not an integer is bad_request under id null: expected error bad_request under id null, got a result under id \"seven\"",
            "FAIL  an unknown method is unknown_method under its id: expected error unknown_method",
            "FAIL  a driver on the world refuses an engine request without world (bad_request)",
            "FAIL  a second instance of the same name is instance_exists",
            "FAIL  closing stdin ends the driver with exit status 0: ended with exit status 3",
        ] {
            #expect(output.text.contains(expected), "\(expected)\n\(output.text)")
        }
        #expect(output.text.contains("the driver fails"), "\(output.text)")
    }

    /// The example driver passes the checker, and the checker runs every line of it (Python's trace
    /// module marks a line never run with `>>>>>>`).
    @Test func theExampleDriverPassesWithEveryLineExercised() throws {
        let directory = try RunAndReplayTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try RunAndReplayTests.run([
            "check-driver", "python3", "-m", "trace", "--count", "--missing", "--coverdir", directory.path, "drivers/example/driver.py",
        ])
        #expect(output.status == 0, "\(output.text)")
        let cover = try String(contentsOf: directory.appendingPathComponent("driver.cover"), encoding: .utf8)
        let unrun = cover.split(separator: "\n").filter { $0.hasPrefix(">>>>>>") }
        #expect(unrun.isEmpty, "lines the checker never runs:\n\(unrun.joined(separator: "\n"))")
        #expect(cover.contains("def respond"), "the cover file is the driver's")
    }
}
