// A long-lived child process spoken to in lines: requests written to its stdin, its stdout read
// line by line as they come, its stderr handed to the caller line by line. For `run --jobs N`,
// whose worker processes are the CLI itself (docs/parallel-runs.md). Lives here because this target
// is swift-subprocess's only importer (docs/architecture.md, rule 4).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Subprocess

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
        // A write to a child that just died must surface as the end of its output, not kill us.
        signal(SIGPIPE, SIG_IGN)
        let (requests, requestSink) = AsyncStream.makeStream(of: String.self)
        let (lines, output) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        var variables: [Environment.Key: String?] = [:]
        for (key, value) in environment { variables[Environment.Key(stringLiteral: key)] = value }
        let runner = Task {
            defer { output.finish() }
            do {
                let outcome = try await run(
                    .path(.init(executable)), arguments: Arguments(arguments), environment: .inherit.updating(variables),
                    input: .inputWriter, output: .sequence, error: .sequence
                ) { execution in
                    LiveDrivers.shared.insert(execution.processIdentifier.value)
                    defer { LiveDrivers.shared.remove(execution.processIdentifier.value) }
                    let writer = execution.standardInputWriter
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await line in requests {
                                do { _ = try await writer.write(line) } catch { break }
                            }
                            try? await writer.finish()
                        }
                        group.addTask {
                            do {
                                for try await line in execution.standardError.strings() { stderr(line) }
                            } catch {
                                stderr("(stderr unreadable: \(error))")
                            }
                        }
                        do {
                            for try await line in execution.standardOutput.strings(bufferingPolicy: .unbounded) {
                                output.yield(line)
                            }
                        } catch {
                            stderr("(stdout unreadable: \(error))")
                        }
                        // stdout closed: the child is exiting; stop feeding it.
                        output.finish()
                        requestSink.finish()
                    }
                }
                return "\(outcome.terminationStatus)"
            } catch {
                return "could not run \(executable): \(error)"
            }
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
