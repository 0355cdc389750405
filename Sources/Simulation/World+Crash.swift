import DeterministicScheduler
import EngineInterface
import FoundationEssentials
import GroupCore

// Crash points (EngineInterface/CrashPoint.swift, docs/restart-matrix.md): a scenario arms one on a
// member; when the member's core or engine reaches it, the member dies there. The input it was
// processing is lost with everything it would have sent (no effect is carried out); its app core's
// state is the one persisted after its last complete input, or the one a write-ahead barrier made
// durable at the crash point; its engine keeps what its store committed (no call reaches it after
// the crash). It then starts again `down` later, as after a `restart`.
extension World {
    /// The member's crash switch, made once per member in runs that persist (nil otherwise: no
    /// run without restarts ever consults one).
    func crashSwitch(of label: String) -> CrashSwitch? {
        guard storage != nil else { return nil }
        if let existing = crashSwitches[label] { return existing }
        let made = CrashSwitch()
        crashSwitches[label] = made
        return made
    }

    /// Arms `point` on `label`: the member dies the next time it reaches it and starts again `down`
    /// later; with `damage`, its engine damages that group's record as it starts again (boundary 8).
    /// False when the run does not persist (the scenario must restart, so it does).
    @discardableResult
    package func armCrash(_ label: String, at point: CrashPoint, down: VirtualDuration, damage: StoreDamage? = nil) -> Bool {
        armCrash([label], at: point, down: down, damage: damage)
    }

    /// Arms `point` on every member of `labels`: the first to reach it dies (as ``armCrash(_:at:down:damage:)``)
    /// and the point is disarmed on the others at that instant, so one crash happens. The member
    /// a seeded race picks (the one that switches branch, say) is then found at run time.
    @discardableResult
    package func armCrash(_ labels: [String], at point: CrashPoint, down: VirtualDuration, damage: StoreDamage? = nil) -> Bool {
        guard !labels.isEmpty, labels.allSatisfy({ members[$0] != nil }) else { return false }
        for label in labels {
            guard let crash = crashSwitch(of: label) else { return false }
            crash.arm(point, damage: damage)
            crashDowntimes[label] = down
            crashSiblings[label] = labels.filter { $0 != label }
            record(
                "member", label,
                "crash point \(point.rawValue) armed" + (labels.count > 1 ? " (first of \(labels.joined(separator: ", ")))" : "")
                    + (damage.map { ", \($0.kind.rawValue) record at the restart" } ?? ""))
        }
        return true
    }

    /// Whether `label` is armed and has not reached its point yet.
    package func crashPending(_ label: String) -> Bool { crashSwitches[label]?.isArmed ?? false }

    /// After an input: if the member died while processing it, drops what it produced, keeps the
    /// write-ahead state if any, and restarts it. True when it died.
    func crashed(_ label: String, losing effects: [CoreEffect]) async -> Bool {
        guard let trip = crashSwitches[label]?.takeTrip() else { return false }
        crashes.append((label, trip.point))
        for sibling in crashSiblings.removeValue(forKey: label) ?? [] {
            crashSwitches[sibling]?.disarm()
            crashSiblings[sibling] = nil
        }
        if let damage = trip.damage { damages.append((label, damage)) }
        record("member", label, "crashed at \(trip.point.rawValue); \(effects.count) effect(s) of the input lost")
        if let durable = trip.durableCore, let storage {
            let path = "\(storage.directory(of: label))/\(Self.coreStateFile)"
            do {
                try Data(durable).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                restartFailures.append("\(label): write-ahead state not persisted: \(error)")
            }
        }
        restart(label, down: crashDowntimes[label] ?? .milliseconds(5_000))
        return true
    }
}
