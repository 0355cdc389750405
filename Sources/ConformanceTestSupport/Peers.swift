// Whether tests against real peers (MDK through mdk-python, rust-nostr through nostr-sdk, both in
// the venv ci/setup creates) run. On a developer machine without the venv they are skipped, and
// Swift Testing names each skipped test with the reason. In CI (the `CI` environment variable set,
// as every CI service does) they always run, so a missing venv, MDK or nostr-sdk fails the run
// instead of quietly shrinking it.
import Foundation

package enum Peers {
    /// Whether the `CI` environment variable asks for a complete run (set, and not `0` or `false`).
    package static var requiredByCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !value.isEmpty && value != "0" && value != "false"
    }

    /// Whether peer tests run: always in CI, else when the venv exists.
    package static var shouldRun: Bool { requiredByCI || PythonVenv.interpreter != nil }
}
