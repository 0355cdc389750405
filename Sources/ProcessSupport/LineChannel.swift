// A long-lived child process spoken to in lines: requests written to its stdin, its stdout read
// line by line as they come, its stderr handed to the caller line by line. For `run --jobs N`,
// whose worker processes are the CLI itself (docs/parallel-runs.md). Started by LineProcess.

package final class LineChannel: Sendable {
    /// The child's stdout, one line per element (no line break); ends when the child closes it.
    package let lines: AsyncStream<String>
    private let input: AsyncStream<String>.Continuation
    private let runner: Task<String, Never>

    private init(lines: AsyncStream<String>, input: AsyncStream<String>.Continuation, runner: Task<String, Never>) {
        self.lines = lines
        self.input = input
        self.runner = runner
    }

    /// Starts `executable` (a path) with `arguments`; `stderr` receives each line the child writes there.
    package static func launch(
        executable: String, arguments: [String], environment: [String: String?] = [:],
        stderr: @escaping @Sendable (String) -> Void
    ) -> LineChannel {
        let (requests, requestSink) = AsyncStream.makeStream(of: String.self)
        let (lines, output) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let runner = Task {
            defer { output.finish() }
            let ending = await LineProcess.run(
                executable: executable, arguments: arguments, environment: environment, input: requests,
                handlers: LineProcess.Handlers(
                    started: { pid in LiveDrivers.shared.insert(pid) },
                    stdout: { line in output.yield(line) },
                    stderr: { line in stderr(line) },
                    // stdout closed: the child is exiting; stop feeding it.
                    stdoutClosed: {
                        output.finish()
                        requestSink.finish()
                    },
                    finished: { pid in LiveDrivers.shared.remove(pid) }))
            return ending.description
        }
        return LineChannel(lines: lines, input: requestSink, runner: runner)
    }

    /// Writes one line (a line break is added) to the child's stdin.
    package func send(_ line: String) { input.yield(line + "\n") }

    /// Closes the child's stdin (a worker then exits once its current request is done).
    package func close() { input.finish() }

    /// Waits for the child to exit: its termination status, or why it could not be run.
    package func status() async -> String { await runner.value }
}
