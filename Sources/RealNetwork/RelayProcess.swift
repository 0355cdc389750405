// A relay server as a child process (`marmot-conform relay --port 0`, or any server that prints its
// `ws://127.0.0.1:<port>` URL on a line of its stdout once it listens). Started with a bounded
// wait for that line; stopped with SIGTERM, then SIGKILL if it is still there after the grace, and
// reaped either way.
import InMemoryRelay
import ProcessSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

package enum RelayProcess {
    /// Why a relay process did not start.
    package struct StartFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts `executable` with `arguments` and waits at most `seconds` for the line with its URL.
    package static func start(executable: String, arguments: [String], seconds: Int = 20) async throws -> RelayEndpoint {
        let pid = Locked<pid_t?>(nil)
        let (lines, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let (input, inputSink) = AsyncStream.makeStream(of: String.self)
        let stderr = Locked<[String]>([])
        let exited = Locked(false)
        Task {
            defer {
                sink.finish()
                exited.value.withLock { $0 = true }
            }
            _ = await LineProcess.run(
                executable: executable, arguments: arguments, environment: [:], input: input,
                handlers: LineProcess.Handlers(
                    started: { started in
                        pid.value.withLock { $0 = started }
                        LiveDrivers.shared.insert(started)
                    },
                    stdout: { line in sink.yield(line) },
                    stderr: { line in stderr.value.withLock { if $0.count < 20 { $0.append(line) } } },
                    stdoutClosed: { sink.finish() },
                    finished: { finished in LiveDrivers.shared.remove(finished) }))
        }
        let stop: @Sendable () async -> String? = {
            inputSink.finish()
            let target = pid.value.withLock { $0 }
            if let target { kill(target, SIGTERM) }
            if await waitFor(exited, tenthsOfSeconds: 50) { return nil }
            guard let target else { return "relay process did not start or stop" }
            kill(target, SIGKILL)
            return await waitFor(exited, tenthsOfSeconds: 50)
                ? "relay process \(target) ignored SIGTERM and was killed" : "relay process \(target) could not be reaped"
        }
        let url = await bounded(seconds: seconds) { () -> String? in
            for await line in lines {
                if let range = line.firstRange(of: "ws://127.0.0.1:") { return String(line[range.lowerBound...]) }
            }
            return nil
        }
        guard let found = url ?? nil, let port = port(of: found) else {
            _ = await stop()
            let said = stderr.value.withLock { $0 }.suffix(3).joined(separator: " | ")
            throw StartFailure(
                description: "\(executable) printed no ws://127.0.0.1 URL within \(seconds) s\(said.isEmpty ? "" : ": \(said)")")
        }
        return RelayEndpoint(port: port, stop: stop)
    }

    /// The port of `ws://127.0.0.1:<port>[/…]`.
    static func port(of url: String) -> Int? {
        let digits = url.dropFirst("ws://127.0.0.1:".count).prefix { $0.isNumber }
        return Int(digits).flatMap { (1...65_535).contains($0) ? $0 : nil }
    }

    /// Whether `flag` turned true within the bound (checked every 100 ms).
    static func waitFor(_ flag: Locked<Bool>, tenthsOfSeconds: Int) async -> Bool {
        for _ in 0..<tenthsOfSeconds {
            if flag.value.withLock({ $0 }) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return flag.value.withLock { $0 }
    }

    /// `work`'s value, or nil when it takes longer than `seconds` (it is then cancelled).
    static func bounded<T: Sendable>(seconds: Int, _ work: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await work() }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// A value behind a lock that escaping closures can share (a `Mutex` itself cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ initial: Value) { value = Mutex(initial) }
}
