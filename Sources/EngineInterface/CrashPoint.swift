// Named crash points (marmot-protocol/marmot, foundation/conformance.md, "Crash and restart
// scenarios"): places inside a member's processing where a scenario can make the member's app die,
// losing everything that was not durable at that instant. The conformance text lists nine
// boundaries a suite must cover; each point below names the boundary it stands at.
//
// Durability model (docs/restart-matrix.md): a member's engine is durable after each operation
// that wrote its store (our engine's state file, MDK's SQLite store); the member's app core is
// durable after each input it finished, and at the two write-ahead barriers marked below (a
// prepared publication and a requested leave are recorded before anything goes out, as the text
// requires for "retries the same obligation"). A crash keeps the last durable state of each and
// loses the rest: the input being processed, everything it would have sent, and every engine call
// after the crash point (the instance is abandoned, as a killed process is).
import Synchronization

/// One crash point. `boundary` is the conformance text's boundary number (1…9).
package enum CrashPoint: String, CaseIterable, Sendable {
    /// 1. Our commit is prepared (engine: staged; core: recorded for publication, write-ahead) and
    /// nothing has gone out.
    case preparedNotPublished = "prepared-not-published"
    /// 2. The relay stored our commit and its OK is arriving: the member dies as it arrives, before
    /// the acknowledgement is recorded anywhere.
    case acknowledgementUncertain = "acknowledgement-uncertain"
    /// 3. The OK is known (recorded in the core's memory) and the merge has not been asked of the engine.
    case confirmedNotMerged = "confirmed-not-merged"
    /// 3. A peer's commit arrived and is admitted, the engine has not been given it.
    case receivedNotApplied = "received-not-applied"
    /// 3. Inside the engine: its next state-changing operation completed in memory and the member
    /// dies before the state file is written (engine-internal: our engine only).
    case engineUnsaved = "engine-unsaved"
    /// 3. Inside the engine: the state file is written and the member dies before the result is
    /// returned to the app (engine-internal: our engine only).
    case engineSavedUnreported = "engine-saved-unreported"
    /// 4. The engine applied a commit (durable) and the app has not derived its views, notices and
    /// notifications from it.
    case appliedNotDerived = "applied-not-derived"
    /// 4/5. Our commit's settle timer fired: its welcomes and derived notices are not sent yet.
    case settleTimerFired = "settle-timer-fired"
    /// 6. Events held while our commit waited for its OK are being resolved as one frozen batch;
    /// the member dies before the first of them is applied.
    case heldBatchPartial = "held-batch-partial"
    /// 7. Inside the engine: the engine is switching a group to another branch (a competing commit
    /// MIP-03 orders first replaces the one we applied, or we follow the branch the group built
    /// on), and the member dies mid-switch, before the state file is written (our engine only).
    case branchSwitchUnsaved = "branch-switch-unsaved"
    /// 9. The user asked to leave (recorded, write-ahead: the outbound gate is durable) and the
    /// leave request has not gone out.
    case leavingNotPublished = "leaving-not-published"

    /// The conformance text's boundary number.
    package var boundary: Int {
        switch self {
        case .preparedNotPublished: 1
        case .acknowledgementUncertain: 2
        case .confirmedNotMerged, .receivedNotApplied, .engineUnsaved, .engineSavedUnreported: 3
        case .appliedNotDerived: 4
        case .settleTimerFired: 5
        case .heldBatchPartial: 6
        case .branchSwitchUnsaved: 7
        case .leavingNotPublished: 9
        }
    }

    /// Whether the point lies inside the engine (only an engine that declares
    /// `conformance.crash_points` reaches it) rather than between the app and its engine.
    package var insideEngine: Bool {
        switch self {
        case .engineUnsaved, .engineSavedUnreported, .branchSwitchUnsaved: true
        default: false
        }
    }
}

/// One member's crash switch: armed by a scenario, tripped by the first code path that reaches the
/// armed point. After it trips, the member is dead: its engine refuses every further call and the
/// world stops and restarts it.
package final class CrashSwitch: Sendable {
    private struct State {
        var armed: CrashPoint?
        var tripped: CrashPoint?
        /// The app core's state at a write-ahead barrier, to be kept as durable.
        var durableCore: [UInt8]?
        /// What to do to the engine's store at the restart (boundary 8), once the point is reached.
        var damage: StoreDamage?
        /// The damage of a crash that happened, taken by the engine made at the restart.
        var pendingDamage: StoreDamage?
    }

    private let state = Mutex(State())

    package init() {}

    /// Arms `point`; the next time a code path reaches it, the member dies there.
    /// `damage`: the store is to be damaged at the restart (boundary 8).
    package func arm(_ point: CrashPoint, damage: StoreDamage? = nil) {
        state.withLock {
            $0.armed = point
            $0.tripped = nil
            $0.durableCore = nil
            $0.damage = damage
            $0.pendingDamage = nil
        }
    }

    /// Called by the code at `point`: true when the member dies here (the caller stops at once).
    /// `durable` is the app core's state at a write-ahead barrier (nil elsewhere).
    package func reached(_ point: CrashPoint, durable: @autoclosure () -> [UInt8]? = nil) -> Bool {
        let hit = state.withLock { $0.armed == point && $0.tripped == nil }
        guard hit else { return isTripped }
        let bytes = durable()
        state.withLock {
            $0.tripped = point
            $0.armed = nil
            $0.durableCore = bytes
            $0.pendingDamage = $0.damage
            $0.damage = nil
        }
        return true
    }

    /// Disarms a point not yet reached (another member armed by the same step reached it first).
    package func disarm() {
        state.withLock {
            guard $0.tripped == nil else { return }
            $0.armed = nil
            $0.damage = nil
        }
    }

    /// Whether the member has died (it must not act any further).
    package var isTripped: Bool { state.withLock { $0.tripped != nil } }

    /// Whether a point is armed and not yet reached.
    package var isArmed: Bool { state.withLock { $0.armed != nil } }

    /// The crash that happened, taken once by the world that restarts the member.
    package func takeTrip() -> (point: CrashPoint, durableCore: [UInt8]?, damage: StoreDamage?)? {
        state.withLock {
            guard let point = $0.tripped else { return nil }
            let trip = (point, $0.durableCore, $0.pendingDamage)
            $0.tripped = nil
            $0.durableCore = nil
            return trip
        }
    }

    /// The damage the store is to suffer before the restarted engine reads it, taken once by that
    /// engine (an engine declaring ``EngineCapability/storeDamage``).
    package func takeDamage() -> StoreDamage? {
        state.withLock {
            let damage = $0.pendingDamage
            $0.pendingDamage = nil
            return damage
        }
    }

    /// The error every engine call answers once the member is dead.
    package static func deadError(_ what: String) -> EngineError {
        EngineError(.crashed, "\(what): the member crashed at a crash point and is not running")
    }
}

extension EngineError.Code {
    /// Every call to the engine of a member that died at a crash point (it never reaches the engine).
    package static let crashed = Self("crashed")
    /// A group whose durable record did not load at the engine's start (damaged, or over a size
    /// cap): the engine's other groups run; this one answers every operation with this code
    /// (boundary 8; issue 30, N6).
    package static let groupUnrecoverable = Self("group_unrecoverable")
}

/// Boundary 8 (foundation/conformance.md, "missing or corrupt material"): what happens to one
/// group's durable record while its member is down after a crash. The engine that owns the store
/// does it when it is made again, before it reads the store: only it knows the format.
package struct StoreDamage: Hashable, Sendable {
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The record's bytes are there and no longer decode.
        case corrupt
        /// The record is gone from the store.
        case missing
    }

    package let group: MLSGroupID
    package let kind: Kind

    package init(group: MLSGroupID, kind: Kind) {
        self.group = group
        self.kind = kind
    }
}

extension EngineCapability {
    /// The engine reaches the engine-internal crash points (``CrashPoint/insideEngine``) when given a
    /// ``CrashSwitch``: a restart-matrix cell at such a point needs it, and is `unsupported` without.
    package static let crashPoints = Self(rawValue: "conformance.crash_points")
    /// The engine damages one group's durable record when it is made again after a crash
    /// (``StoreDamage``, boundary 8): a cell that damages a store needs it, and is `unsupported` without.
    package static let storeDamage = Self(rawValue: "conformance.store_damage")
}
