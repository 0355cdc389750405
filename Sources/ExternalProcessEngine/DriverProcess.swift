#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EngineInterface
import Nostr
import Subprocess

/// One running driver process speaking docs/driver-protocol.md over its stdin/stdout. It may host many
/// engine instances (``makeEngine(instance:encryptionKey:config:)``); requests from all of them share the
/// pipe and are matched to responses by id.
///
/// Every request has a wall-clock timeout; when the driver exits, every pending and later request fails
/// with `.driverDied`, naming the exit status and the last lines the driver wrote to stderr.
public actor DriverProcess {
    private typealias Reply = Result<[String: JSONValue], EngineError>

    private let requestTimeout: Duration
    private let outbox: AsyncStream<String>.Continuation
    private var pending: [Int: CheckedContinuation<Reply, Never>] = [:]
    private var timers: [Int: Task<Void, Never>] = [:]
    private var nextID = 1
    private var stderrTail: [String] = []
    private var death: EngineError?
    private var runner: Task<Void, Never>?

    private static let stderrTailLines = 20

    private init(requestTimeout: Duration, outbox: AsyncStream<String>.Continuation) {
        self.requestTimeout = requestTimeout
        self.outbox = outbox
    }

    /// Starts `executable` with `arguments` and returns once it is running (it is not yet known to answer).
    /// - Parameter requestTimeout: how long any one request may wait for its response.
    public static func launch(
        executable: String,
        arguments: [String],
        requestTimeout: Duration = .seconds(60)
    ) async -> DriverProcess {
        // A write to a driver that just died raises SIGPIPE, which would kill the whole test process
        // instead of surfacing as `.driverDied`.
        signal(SIGPIPE, SIG_IGN)
        let (lines, outbox) = AsyncStream.makeStream(of: String.self)
        let driver = DriverProcess(requestTimeout: requestTimeout, outbox: outbox)
        await driver.start(executable: executable, arguments: arguments, lines: lines)
        return driver
    }

    private func start(executable: String, arguments: [String], lines: AsyncStream<String>) {
        runner = Task {
            let status: String
            do {
                let outcome = try await run(
                    .path(.init(executable)),
                    arguments: Arguments(arguments),
                    input: .inputWriter,
                    output: .sequence,
                    error: .sequence
                ) { execution in
                    let writer = execution.standardInputWriter
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await line in lines {
                                do { _ = try await writer.write(line) } catch { break }
                            }
                            try? await writer.finish()
                        }
                        group.addTask {
                            do {
                                for try await line in execution.standardError.strings() { await self.noteStderr(line) }
                            } catch {
                                await self.noteStderr("(stderr unreadable: \(error))")
                            }
                        }
                        // The body runs on this actor, so responses are matched without hopping.
                        do {
                            for try await line in execution.standardOutput.strings(bufferingPolicy: .unbounded) {
                                self.receive(line)
                            }
                        } catch {
                            self.noteStderr("(stdout unreadable: \(error))")
                        }
                        // stdout closed: the driver is exiting, so stop feeding it.
                        self.stopWriting()
                    }
                }
                status = "\(outcome.terminationStatus)"
            } catch {
                status = "could not run \(executable): \(error)"
            }
            self.terminated(status: status)
        }
    }

    /// Sends one request and waits for its response's `result` object.
    /// - Throws: the driver's typed error, or `.driverDied`, `.timeout`, `.malformedResponse`.
    public func call(_ method: DriverMethod, _ params: [String: JSONValue] = [:]) async throws(EngineError)
        -> [String: JSONValue]
    {
        if let death { throw death }
        let id = nextID
        nextID += 1
        let request = JSONValue.object([
            "id": JSONValue(id), "method": .string(method.rawValue), "params": .object(params),
        ])
        let timeout = requestTimeout
        let reply = await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
            pending[id] = continuation
            timers[id] = Task {
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                self.settle(id, .failure(EngineError(.timeout, "\(method.rawValue) got no response within \(timeout)")))
            }
            outbox.yield(request.serialized() + "\n")
        }
        return try reply.get()
    }

    /// Closes the driver's stdin and waits for it to exit (the driver then deletes its run directory).
    public func shutdown() async {
        outbox.finish()
        await runner?.value
    }

    // MARK: - Events from the process

    private func receive(_ line: String) {
        guard !line.isEmpty else { return }
        guard let response = try? JSONValue(parsing: line).object, let id = response["id"]?.int64.flatMap(Int.init(exactly:)) else {
            // Not attributable to a request; the protocol allows one outstanding line only in error.
            let failure = EngineError(.malformedResponse, "driver wrote a line that is not a response: \(line.prefix(200))")
            for id in pending.keys { settle(id, .failure(failure)) }
            return
        }
        if let error = response["error"]?.object {
            let code = error["code"]?.string ?? "unknown"
            settle(id, .failure(EngineError(EngineError.Code(code), error["message"]?.string ?? "")))
        } else if let result = response["result"]?.object {
            settle(id, .success(result))
        } else {
            settle(id, .failure(EngineError(.malformedResponse, "response \(id) has neither result nor error")))
        }
    }

    private func settle(_ id: Int, _ reply: Reply) {
        timers.removeValue(forKey: id)?.cancel()
        pending.removeValue(forKey: id)?.resume(returning: reply)
    }

    private func noteStderr(_ line: String) {
        stderrTail.append(line)
        if stderrTail.count > Self.stderrTailLines { stderrTail.removeFirst(stderrTail.count - Self.stderrTailLines) }
    }

    private func stopWriting() { outbox.finish() }

    private func terminated(status: String) {
        let tail = stderrTail.isEmpty ? "(stderr empty)" : stderrTail.joined(separator: "\n")
        let failure = EngineError(.driverDied, "driver exited (\(status)); last stderr lines:\n\(tail)")
        death = failure
        for id in pending.keys { settle(id, .failure(failure)) }
    }
}
