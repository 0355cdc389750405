import Subprocess

// The one way the project runs a long-lived child spoken to in lines: what is yielded to `input`
// is written to its stdin, its stdout and stderr are handed over line by line as they come, and the
// call returns when it has exited. DriverProcess (the engine client), RawDriver (the protocol
// checker's bench) and LineChannel (`run --jobs` workers) differ only in what they do with the
// lines, so they share this and pass handlers. Lives here because this target is swift-subprocess's
// only importer (docs/architecture.md, rule 4).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package enum LineProcess {
    /// What the caller does with the child's life: each is awaited in order for one stream, so lines
    /// of stdout reach `stdout` in the order the child wrote them.
    package struct Handlers: Sendable {
        /// The child runs, with this pid (before any line is written to it).
        package var started: @Sendable (pid_t) async -> Void = { _ in }
        /// A line reached the child's stdin.
        package var wrote: @Sendable () async -> Void = {}
        package var stdout: @Sendable (String) async -> Void
        package var stderr: @Sendable (String) async -> Void
        /// Stdout closed (the child is exiting): called once, before the exit is awaited.
        package var stdoutClosed: @Sendable () async -> Void = {}
        /// The child's streams are done, with its pid (it is exiting or gone).
        package var finished: @Sendable (pid_t) async -> Void = { _ in }

        package init(
            started: @escaping @Sendable (pid_t) async -> Void = { _ in }, wrote: @escaping @Sendable () async -> Void = {},
            stdout: @escaping @Sendable (String) async -> Void, stderr: @escaping @Sendable (String) async -> Void,
            stdoutClosed: @escaping @Sendable () async -> Void = {}, finished: @escaping @Sendable (pid_t) async -> Void = { _ in }
        ) {
            self.started = started
            self.wrote = wrote
            self.stdout = stdout
            self.stderr = stderr
            self.stdoutClosed = stdoutClosed
            self.finished = finished
        }
    }

    /// How the child ended, or why it could not be run.
    package enum Ending: Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        case couldNotRun(String)

        /// `exited(N)`, `signaled(N)`, or why it could not be run.
        package var description: String {
            switch self {
            case .exited(let code): "exited(\(code))"
            case .signaled(let signal): "signaled(\(signal))"
            case .couldNotRun(let reason): reason
            }
        }
    }

    /// Runs `executable` (a bare name is looked up on PATH, anything with a slash is a path) with
    /// this process's environment updated by `environment` (nil removes a variable), until it exits.
    /// Ignores SIGPIPE for the whole process first: a write to a child that just died must surface
    /// as the end of its output, not kill us.
    package static func run(
        executable: String, arguments: [String], environment: [String: String?], input: AsyncStream<String>, handlers: Handlers
    ) async -> Ending {
        signal(SIGPIPE, SIG_IGN)
        var variables: [Environment.Key: String?] = [:]
        for (key, value) in environment { variables[Environment.Key(stringLiteral: key)] = value }
        do {
            let outcome = try await Subprocess.run(
                executable.contains("/") ? .path(.init(executable)) : .name(executable),
                arguments: Arguments(arguments), environment: .inherit.updating(variables),
                input: .inputWriter, output: .sequence, error: .sequence
            ) { execution in
                await handlers.started(execution.processIdentifier.value)
                let writer = execution.standardInputWriter
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await line in input {
                            do { _ = try await writer.write(line) } catch { break }
                            await handlers.wrote()
                        }
                        try? await writer.finish()
                    }
                    group.addTask {
                        do {
                            for try await line in execution.standardError.strings() { await handlers.stderr(line) }
                        } catch {
                            await handlers.stderr("(stderr unreadable: \(error))")
                        }
                    }
                    do {
                        for try await line in execution.standardOutput.strings(bufferingPolicy: .unbounded) { await handlers.stdout(line) }
                    } catch {
                        await handlers.stderr("(stdout unreadable: \(error))")
                    }
                    await handlers.stdoutClosed()
                }
                await handlers.finished(execution.processIdentifier.value)
            }
            switch outcome.terminationStatus {
            case .exited(let code): return .exited(code)
            case .signaled(let signal): return .signaled(signal)
            }
        } catch {
            return .couldNotRun("could not run \(executable): \(error)")
        }
    }
}
