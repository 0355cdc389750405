#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a driver request may wait, measured in the driver's progress rather than in wall-clock
/// time, so that a slow or loaded machine never turns a healthy call into a timeout while a hung driver
/// is still caught within seconds.
///
/// The driver makes progress when it writes a line (stdout or stderr) or uses CPU time (read from
/// `/proc/<pid>/stat` on Linux; elsewhere only output counts). A request fails with `.timeout` when the
/// driver has made no progress for `silence` while it waits, or, whatever the driver does, after
/// `limit` (a driver spinning without ever answering).
package struct ProgressDeadline: Sendable, Equatable {
    /// Allowed span without progress while a request waits.
    package var silence: Duration
    /// Absolute bound on one request, for a driver that burns CPU without answering.
    package var limit: Duration
    /// How often the client looks at the driver while requests wait.
    package var tick: Duration

    /// The default silence: MDK's slowest real call (bulk create with 50 members) uses CPU throughout,
    /// so silence only measures a driver that is blocked, stopped or deadlocked.
    package static let defaultSilence = Duration.seconds(10)

    package init(silence: Duration = defaultSilence, limit: Duration? = nil, tick: Duration? = nil) {
        self.silence = silence
        self.limit = limit ?? max(silence * 60, .seconds(60))
        self.tick = tick ?? min(max(silence / 10, .milliseconds(20)), .seconds(1))
    }
}

/// When the driver last made progress, as the watchdog sees it.
struct DriverProgress {
    private(set) var last: ContinuousClock.Instant
    private var cpuTicks: UInt64?

    init(now: ContinuousClock.Instant) { last = now }

    /// A request was sent to an idle driver: time spent idle before it does not count.
    mutating func restart(now: ContinuousClock.Instant) { last = now }

    mutating func noteOutput(now: ContinuousClock.Instant) { last = now }

    /// Records the driver's CPU time; any increase is progress.
    mutating func noteCPU(_ ticks: UInt64?, now: ContinuousClock.Instant) {
        guard let ticks else { return }
        if let previous = cpuTicks, ticks > previous { last = now }
        cpuTicks = ticks
    }

    /// Why waiting requests have expired, or nil.
    func expired(_ deadline: ProgressDeadline, oldestSent: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> String? {
        if now - last > deadline.silence {
            return "no response and no progress from the driver (no output, no CPU time) for \(deadline.silence)"
        }
        if let oldestSent, now - oldestSent > deadline.limit {
            return "no response within \(deadline.limit), although the driver keeps running"
        }
        return nil
    }
}

/// A process's CPU time (user + system, in clock ticks, all threads) from `/proc/<pid>/stat`.
enum ProcessCPUTime {
    static func read(_ pid: pid_t) -> UInt64? {
        #if os(Linux)
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = fread(&buffer, 1, buffer.count, file)
        guard count > 0 else { return nil }
        // The command name (field 2) is in parentheses and may contain spaces: fields count from the last ')'.
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After ')': state is field 3, utime field 14, stime field 15.
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        return user + system
        #else
        return nil
        #endif
    }

    /// Whether the process has ended (gone, or a zombie not reaped yet), as /proc tells it.
    static func hasEnded(_ pid: pid_t) -> Bool {
        #if os(Linux)
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return true }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = fread(&buffer, 1, buffer.count, file)
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return true }
        let state = text[text.index(after: close)...].split(separator: " ").first ?? ""
        return state == "Z" || state == "X"
        #else
        return false
        #endif
    }
}
