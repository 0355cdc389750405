import DriverProtocol
import EngineInterface
import Nostr
import ProcessSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One running driver process speaking docs/driver-protocol.md over its stdin/stdout. It may host many
/// engine instances (``makeEngine(instance:encryptionKey:config:world:)``); requests from all of them
/// share the pipe and are matched to responses by id.
///
/// Requests have a deadline on *progress*, not on wall-clock time (``ProgressDeadline``): a request
/// fails with `.timeout` once the driver has been silent and idle for the allowed span. A response with
/// an id no request is waiting for, or a line that is not a response, fails every pending request at
/// once with `.malformedResponse`. When the driver exits, every pending and later request fails with
/// `.driverDied`, naming the exit status and the last lines the driver wrote to stderr.
package actor DriverProcess {
    private typealias Reply = Result<[String: JSONValue], EngineError>

    private struct Pending {
        let method: DriverMethod
        let sent: ContinuousClock.Instant
        let continuation: CheckedContinuation<Reply, Never>
    }

    private let deadline: ProgressDeadline
    private let outbox: AsyncStream<String>.Continuation
    private var pending: [Int: Pending] = [:]
    private var nextID = 1
    private var stderrTail: [String] = []
    private var death: EngineError?
    private var runner: Task<Void, Never>?
    private var watchdog: Task<Void, Never>?
    private var processID: pid_t?
    private var progress: DriverProgress

    private static let stderrTailLines = 20

    private init(deadline: ProgressDeadline, outbox: AsyncStream<String>.Continuation) {
        self.deadline = deadline
        self.outbox = outbox
        progress = DriverProgress(now: .now)
    }

    /// Starts `executable` with `arguments` and returns once it is running (it is not yet known to answer).
    /// - Parameters:
    ///   - environment: variables to set (or, with nil, remove) on top of this process's environment.
    ///   - deadline: how long a request may wait without the driver making progress.
    package static func launch(
        executable: String,
        arguments: [String],
        environment: [String: String?] = [:],
        deadline: ProgressDeadline = ProgressDeadline()
    ) async -> DriverProcess {
        let (lines, outbox) = AsyncStream.makeStream(of: String.self)
        let driver = DriverProcess(deadline: deadline, outbox: outbox)
        await driver.start(executable: executable, arguments: arguments, environment: environment, lines: lines)
        return driver
    }

    private func start(executable: String, arguments: [String], environment: [String: String?], lines: AsyncStream<String>) {
        // The driver watches this pid and exits when it is gone (docs/driver-protocol.md, "Transport").
        let environment = environment.merging(["MARMOT_DRIVER_PARENT_PID": "\(getpid())"]) { given, _ in given }
        runner = Task {
            let ending = await LineProcess.run(
                executable: executable, arguments: arguments, environment: environment, input: lines,
                handlers: LineProcess.Handlers(
                    started: { pid in await self.started(pid) },
                    // The driver could not have answered before it got the line: a busy client (not
                    // the driver) is what kept it waiting until now.
                    wrote: { await self.noteWritten() },
                    stdout: { line in await self.receive(line) },
                    stderr: { line in await self.noteStderr(line) },
                    // stdout closed: the driver is exiting, so stop feeding it.
                    stdoutClosed: { await self.stopWriting() }))
            self.terminated(status: ending.description)
        }
    }

    /// Sends one request and waits for its response's `result` object.
    /// - Parameter world: the request's `world` field (virtual time and seed), when the engine runs on
    ///   the world's clock.
    /// - Throws: the driver's typed error, or `.driverDied`, `.timeout`, `.malformedResponse`.
    package func call(_ method: DriverMethod, _ params: [String: JSONValue] = [:], world: JSONValue? = nil)
        async throws(EngineError) -> [String: JSONValue]
    {
        if let death { throw death }
        let id = nextID
        nextID += 1
        var request: [String: JSONValue] = ["id": JSONValue(id), "method": .string(method.rawValue), "params": .object(params)]
        if let world { request["world"] = world }
        let reply = await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
            let now = ContinuousClock.now
            if pending.isEmpty { progress.restart(now: now) }
            pending[id] = Pending(method: method, sent: now, continuation: continuation)
            startWatchdog()
            outbox.yield(JSONValue.object(request).serialized() + "\n")
        }
        return try reply.get()
    }

    /// Closes the driver's stdin and waits for it to exit (the driver then deletes its run directory).
    package func shutdown() async {
        outbox.finish()
        await runner?.value
    }

    /// The driver's process id while it runs (for tests and diagnostics).
    package var pid: pid_t? { processID }

    // MARK: - Events from the process

    private func started(_ pid: pid_t) {
        processID = pid
        LiveDrivers.shared.insert(pid)
    }

    private func receive(_ line: String) {
        guard !line.isEmpty else { return }
        progress.noteOutput(now: .now)
        let response: DriverResponse
        do { response = try DriverResponse(line: line) } catch {
            // Not attributable to a request; the protocol allows one outstanding line only in error.
            failAll(error)
            return
        }
        guard pending[response.id] != nil else {
            // A reply nobody asked for means the stream is out of step: waiting would only stall.
            failAll(EngineError(.malformedResponse, "driver answered request \(response.id), which is not pending: \(line.prefix(200))"))
            return
        }
        settle(response.id, response.outcome)
    }

    private func settle(_ id: Int, _ reply: Reply) {
        pending.removeValue(forKey: id)?.continuation.resume(returning: reply)
    }

    private func failAll(_ failure: EngineError) {
        for id in pending.keys.sorted() { settle(id, .failure(failure)) }
    }

    private func noteWritten() { progress.noteOutput(now: .now) }

    private func noteStderr(_ line: String) {
        progress.noteOutput(now: .now)
        stderrTail.append(line)
        if stderrTail.count > Self.stderrTailLines { stderrTail.removeFirst(stderrTail.count - Self.stderrTailLines) }
    }

    private func stopWriting() { outbox.finish() }

    private func terminated(status: String) {
        if let processID { LiveDrivers.shared.remove(processID) }
        let tail = stderrTail.isEmpty ? "(stderr empty)" : stderrTail.joined(separator: "\n")
        let failure = EngineError(.driverDied, "driver exited (\(status)); last stderr lines:\n\(tail)")
        death = failure
        failAll(failure)
        watchdog?.cancel()
    }

    // MARK: - Deadline on progress

    /// One task per driver that wakes every tick while requests are pending and fails them once the
    /// driver has made no progress (no output, no CPU time) for the allowed span.
    private func startWatchdog() {
        guard watchdog == nil, death == nil else { return }
        let tick = deadline.tick
        watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                await self.checkProgress()
            }
        }
    }

    private func checkProgress() async {
        guard !pending.isEmpty else { return }
        progress.noteCPU(processID.flatMap(ProcessCPUTime.read), now: .now)
        guard progress.expired(deadline, oldestSent: pending.values.map(\.sent).min(), now: .now) != nil else { return }
        // Before failing anything, let work already queued on this actor run (a response read from the
        // pipe while this process was too busy to run the reader is progress, not silence).
        await Task.yield()
        guard !pending.isEmpty else { return }
        let now = ContinuousClock.now
        progress.noteCPU(processID.flatMap(ProcessCPUTime.read), now: now)
        let oldest = pending.values.map(\.sent).min()
        guard let reason = progress.expired(deadline, oldestSent: oldest, now: now) else { return }
        // A driver that exited is dead, not slow: on a loaded machine its exit can be noticed after
        // the deadline. Give the exit handler (status, stderr tail) a moment to say so first.
        if let processID, ProcessCPUTime.hasEnded(processID) {
            for _ in 0..<100 where death == nil {
                try? await Task.sleep(for: .milliseconds(20))
            }
            if death == nil {
                let tail = stderrTail.isEmpty ? "(stderr empty)" : stderrTail.joined(separator: "\n")
                failAll(EngineError(.driverDied, "driver exited (status not reported yet); last stderr lines:\n\(tail)"))
            }
            return
        }
        let methods = pending.values.map(\.method.rawValue).sorted().joined(separator: ", ")
        failAll(EngineError(.timeout, "\(methods): \(reason)"))
    }
}
