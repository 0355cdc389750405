import Synchronization

// The child processes this process started and that still run, so that an interrupted runner can
// take them down with it. Every child the project starts goes through this target (swift-subprocess's
// only importer), so this is the one place that knows them.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every driver process this process started and that has not exited, so that the runner can take
/// them down with it when it is interrupted (drivers also exit on their own when their parent dies).
package final class LiveDrivers: Sendable {
    package static let shared = LiveDrivers()
    private let pids = Mutex<Set<pid_t>>([])

    package func insert(_ pid: pid_t) { _ = pids.withLock { $0.insert(pid) } }
    package func remove(_ pid: pid_t) { _ = pids.withLock { $0.remove(pid) } }

    /// The drivers still running.
    package var running: Set<pid_t> { pids.withLock { $0 } }

    /// Sends SIGTERM to every driver still running, for a runner that is being terminated: a driver
    /// then removes its run directory and exits. One that cannot (stuck in native code) still exits
    /// within a second once the runner is gone, by its parent watch (docs/driver-protocol.md).
    package func terminateAll() {
        for pid in running { kill(pid, SIGTERM) }
    }
}
