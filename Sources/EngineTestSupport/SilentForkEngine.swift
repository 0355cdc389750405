// Test-only twin of the convergence oracle (never a shipped engine option): an engine that forks
// silently. Handed a peer's commit it was told to fork on, it does not apply it: it commits and
// merges a self-update of its own instead and reports the commit as processed. It ends on the same
// epoch number as its peers, with the same name, members and admins, but on another MLS state,
// which only an exact-state comparison can see.
import EngineInterface
import Nostr
import Synchronization

/// The events a `SilentForkEngine` forks on, set by the test while the world runs.
package final class ForkTrigger: Sendable {
    private let targets = Mutex<Set<EventID>>([])
    private let forked = Mutex<[EventID]>([])

    package init() {}

    /// Fork on `event` when it arrives.
    package func arm(_ event: EventID) { targets.withLock { _ = $0.insert(event) } }

    /// The events the engine forked on so far.
    package var forks: [EventID] { forked.withLock { $0 } }

    func take(_ event: EventID) -> Bool {
        let hit = targets.withLock { $0.remove(event) != nil }
        if hit { forked.withLock { $0.append(event) } }
        return hit
    }
}

package struct SilentForkEngine: ForwardingEngine {
    package let base: any ProtocolEngine
    package let trigger: ForkTrigger

    package init(base: any ProtocolEngine, trigger: ForkTrigger) {
        self.base = base
        self.trigger = trigger
    }

    package func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult {
        guard trigger.take(event.id) else { return try await base.processMessage(event) }
        let chatID = event.firstTagValue("h") ?? ""
        guard let group = try await base.groups().first(where: { $0.nostrGroupID == chatID }) else {
            throw EngineError(.unknownGroup, "fork twin: no group \(chatID.prefix(8))")
        }
        _ = try await base.selfUpdate(in: group.mlsGroupID)
        try await base.mergePendingCommit(in: group.mlsGroupID)
        return .commit(group.mlsGroupID)
    }
}
