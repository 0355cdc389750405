import ProcessSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A driver process spoken to line by line, with nothing interpreted: for the protocol checker
/// (``DriverChecker``), which must send what no client would and see exactly what comes back.
/// ``DriverProcess`` is the client for running engines; this is its test bench.
package actor RawDriver {
    private let outbox: AsyncStream<String>.Continuation
    private var lines: [String] = []
    private var waiter: (id: Int, continuation: CheckedContinuation<String?, Never>)?
    private var waiterCounter = 0
    private var closed = false
    private var exitStatus: String?
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []
    private var stderrTail: [String] = []
    private var processID: pid_t?
    private var runner: Task<Void, Never>?

    private init(outbox: AsyncStream<String>.Continuation) { self.outbox = outbox }

    /// Starts the driver (a bare name is looked up on PATH).
    package static func launch(executable: String, arguments: [String], environment: [String: String?] = [:]) async -> RawDriver {
        let (stream, outbox) = AsyncStream.makeStream(of: String.self)
        let driver = RawDriver(outbox: outbox)
        await driver.start(executable: executable, arguments: arguments, environment: environment, input: stream)
        return driver
    }

    private func start(executable: String, arguments: [String], environment: [String: String?], input: AsyncStream<String>) {
        let environment = environment.merging(["MARMOT_DRIVER_PARENT_PID": "\(getpid())"]) { given, _ in given }
        runner = Task {
            let ending = await LineProcess.run(
                executable: executable, arguments: arguments, environment: environment, input: input,
                handlers: LineProcess.Handlers(
                    started: { pid in await self.started(pid) },
                    stdout: { line in await self.received(line) },
                    stderr: { line in await self.noteStderr(line) },
                    stdoutClosed: { await self.closeInput() }))
            switch ending {
            case .exited(let code): self.terminated("exit status \(code)")
            case .signaled(let signal): self.terminated("killed by signal \(signal)")
            case .couldNotRun(let reason): self.terminated(reason)
            }
        }
    }

    /// Writes `text` as is (the caller adds newlines).
    package func send(_ text: String) { outbox.yield(text) }

    /// Closes the driver's stdin (the protocol's shutdown).
    package func closeInput() { outbox.finish() }

    /// The next line the driver writes to stdout, or nil when none comes within `timeout` or
    /// stdout closed.
    package func nextLine(within timeout: Duration) async -> String? {
        if !lines.isEmpty { return lines.removeFirst() }
        if closed { return nil }
        waiterCounter += 1
        let id = waiterCounter
        return await withCheckedContinuation { continuation in
            waiter = (id, continuation)
            Task {
                try? await Task.sleep(for: timeout)
                self.expire(id)
            }
        }
    }

    /// Waits up to `timeout` for the driver to exit; its status, or nil if it still runs (then it
    /// is killed, so that no checked driver outlives the check).
    package func exit(within timeout: Duration) async -> String? {
        if let exitStatus { return exitStatus }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.wakeExitWaiters()
        }
        await withCheckedContinuation { exitWaiters.append($0) }
        timer.cancel()
        if let exitStatus { return exitStatus }
        if let processID { kill(processID, SIGKILL) }
        await runner?.value
        return nil
    }

    /// How the driver ended, once it has.
    package var exited: String? { exitStatus }

    /// The last lines the driver wrote to stderr.
    package var stderr: [String] { stderrTail }

    private func started(_ pid: pid_t) { processID = pid }

    private func received(_ line: String) {
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: line)
        } else {
            lines.append(line)
        }
    }

    private func expire(_ id: Int) {
        guard let waiter, waiter.id == id else { return }
        self.waiter = nil
        waiter.continuation.resume(returning: nil)
    }

    private func noteStderr(_ line: String) {
        stderrTail.append(line)
        if stderrTail.count > 20 { stderrTail.removeFirst() }
    }

    private func terminated(_ status: String) {
        closed = true
        exitStatus = status
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: nil)
        }
        wakeExitWaiters()
    }

    private func wakeExitWaiters() {
        let waiting = exitWaiters
        exitWaiters = []
        for continuation in waiting { continuation.resume() }
    }
}
