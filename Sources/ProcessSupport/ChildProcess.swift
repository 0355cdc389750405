// One-shot child processes: start a program, feed it its whole input on stdin, collect what it
// writes, wait for it to exit. For the peer checks that run a Python script over our output
// (ConformanceTestSupport's `PythonVenv`). This target is swift-subprocess's only importer
// (docs/architecture.md, rule 4), so every child process the project starts goes through here.
import Subprocess

package enum ChildProcess {
    /// What a finished child did.
    package struct Result: Sendable {
        /// The exit status, or 128 + the signal number when a signal ended it (the shell's convention).
        package let status: Int32
        package let stdout: [UInt8]
        package let stderr: [UInt8]
    }

    /// Runs `executable` (a path) with `arguments`, writing `input` to its stdin while reading its
    /// stdout and stderr (so that large payloads cannot deadlock on full pipes).
    /// - Parameter outputLimit: the most bytes kept of each output stream; a child writing more
    ///   makes the call throw instead of growing without bound.
    /// - Throws: when the child cannot be started or writes more than `outputLimit`.
    package static func run(executable: String, arguments: [String], input: [UInt8], outputLimit: Int = 64 << 20) async throws -> Result {
        let outcome = try await Subprocess.run(
            .path(.init(executable)), arguments: Arguments(arguments), input: .array(input),
            output: .bytes(limit: outputLimit), error: .bytes(limit: outputLimit))
        let status: Int32
        switch outcome.terminationStatus {
        case .exited(let code): status = Int32(code)
        case .signaled(let signal): status = 128 + Int32(signal)
        }
        return Result(status: status, stdout: outcome.standardOutput, stderr: outcome.standardError)
    }
}
