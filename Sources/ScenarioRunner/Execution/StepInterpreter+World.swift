// World steps that take more than a line: parallel blocks, waits with their `never` watch, and
// faults (a relay down, a member partitioned, a rule on selected frames).
import DeterministicScheduler
import GroupCore
import InMemoryRelay
import Nostr
import ScenarioModel
import Simulation

extension StepInterpreter {
    /// Logically concurrent: every action is dispatched at the same instant, in an order the seed
    /// chooses, before any of their traffic is delivered.
    mutating func runParallel(_ substeps: [Step], name: String?) async throws {
        var actions: [(String, AppAction)] = []
        for substep in substeps {
            guard case .member(let member) = substep.action else {
                throw StepFailure(message: "parallel blocks hold member actions only, found '\(substep.verb)'")
            }
            actions.append((member.by, try await appAction(for: member)))
        }
        actions.shuffle(using: &generator)
        actions = exploredOrder(actions, name: name)
        log.append("  order: \(actions.map(\.0).joined(separator: ", "))")
        orders.append(actions.map(\.0).joined(separator: ","))
        var entrants: [RenameRace.Entrant] = []
        for (by, action) in actions {
            let published = await dispatch(by, action)
            // A rename commits at once: the first group event its member publishes is the commit.
            if case .rename(_, let name) = action, let commit = published {
                entrants.append(RenameRace.Entrant(member: by, name: name, commit: commit))
            }
        }
        if let name, !entrants.isEmpty { races[name] = RenameRace(entrants: entrants) }
    }

    /// Under a schedule explorer, the order is its choice: position by position, which of the actions
    /// not yet placed goes next, 0 keeping the seeded order (docs/explore.md).
    func exploredOrder<Action>(_ actions: [Action], name: String?) -> [Action] {
        guard world.network.choices != nil else { return actions }
        var left = actions
        var order: [Action] = []
        var picks: [UInt8] = []
        while !left.isEmpty {
            // The picks so far are part of the state: the next position's choice differs after each.
            let extra = FNV1a64.absorb(picks, into: world.network.choiceStateExtra())
            let index =
                world.network.choices?.choose(among: left.count, label: "parallel \(name ?? "step \(stepNumber)")", extra: extra) ?? 0
            picks.append(UInt8(truncatingIfNeeded: index))
            order.append(left.remove(at: index))
        }
        return order
    }

    mutating func wait(_ step: WaitStep, title: String) async -> CheckResult {
        let deadline = world.now.advanced(by: step.within.virtual)
        var watch = await NeverWatch(step.never, world: world)
        var quiescent = false
        while world.now <= deadline {
            guard await world.step() else {
                quiescent = true
                break
            }
            if let broken = await watch.violation(in: world) {
                return CheckResult(
                    check: "\(title): never \(step.never.map(\.rawValue).joined(separator: ", "))", clause: ScenarioExecutor.scenarioClause,
                    verdict: .fail, expected: "none of these while waiting", observed: broken)
            }
        }
        switch step.until {
        case .quiescent:
            return CheckResult(
                check: "\(title): quiescent within \(step.within)", clause: ScenarioExecutor.scenarioClause,
                verdict: quiescent ? .pass : .fail, detail: quiescent ? "" : "traffic or timers still pending at \(world.now)")
        case .converged:
            return await Convergence.check("\(title): converged within \(step.within)", in: world)
        }
    }

    mutating func applyFault(_ fault: FaultStep, stepName: String?) throws {
        let kind = fault.kind
        func need(_ value: String?, _ what: String) throws -> String {
            guard let value else { throw StepFailure(message: "fault '\(kind.rawValue)' needs '\(what)'") }
            return value
        }
        switch kind {
        case .down, .up:
            world.network.setRelay(try need(fault.relay, "relay"), up: kind == .up)
            return
        case .partition:
            world.network.partition(try need(fault.member, "member"))
            return
        case .tamper:
            guard let k = fault.eventKind else { throw StepFailure(message: "fault 'tamper' needs 'kind'") }
            let author = try key(try need(fault.author, "author"))
            world.tamper(deliveriesTo: try need(fault.member, "member"), kind: Kind(rawValue: k), author: author)
            return
        case .heal:
            world.network.heal(try need(fault.member, "member"))
            return
        case .blobTamper, .blobLose:
            world.setBlobFault(kind == .blobTamper ? .tamper : .lose)
            return
        default:
            break
        }
        var selector = FrameSelector()
        if let k = fault.eventKind { selector.kinds = [Kind(rawValue: k)] }
        if let author = fault.author { selector.authorLabel = author }
        let scope: FaultRule.Scope =
            switch (fault.relay, fault.member) {
            case (let r?, let m?): .link(member: m, relay: r)
            case (let r?, nil): .relay(r)
            case (nil, let m?): .member(m)
            case (nil, nil): .everywhere
            }
        let action: FaultRule.Action
        switch kind {
        case .drop: action = .drop
        case .delay: action = .delay((fault.duration ?? ScenarioDuration(milliseconds: 1_000)).virtual)
        case .duplicate: action = .duplicate
        case .reorder: action = .reorder
        case .reject: action = .reject(prefix: MachineReadablePrefix(fault.prefix ?? "blocked"), message: "rejected by scenario")
        case .withholdOK: action = .withholdOK
        case .eclipse, .stale:
            // A hostile relay's conduct towards one member: both need the relay and the member.
            _ = try need(fault.relay, "relay")
            _ = try need(fault.member, "member")
            action = kind == .eclipse ? .swallow : .stale
        case .restart: action = .restart(down: (fault.duration ?? ScenarioDuration(milliseconds: 5_000)).virtual)
        case .hold:
            guard let name = stepName else { throw StepFailure(message: "a hold fault needs a step name for release to refer to") }
            action = .hold(name)
        case .down, .up, .partition, .heal, .tamper, .blobTamper, .blobLose: return
        }
        // EVENT-carrying rules watch what members publish unless told otherwise; OK withholding
        // watches the relay's answer.
        let direction: FaultRule.Direction =
            switch kind {
            case .withholdOK: .both
            case .eclipse: .toRelay
            case .stale: .toMember
            default: fault.direction == .toMember ? .toMember : .toRelay
            }
        let occurrences: FaultRule.Occurrences = fault.nth.map { .nth($0) } ?? .all
        if kind != .withholdOK, selector.verbs == nil { selector.verbs = ["EVENT"] }
        let rule = world.network.addFault(
            FaultRule(scope: scope, direction: direction, selector: selector, action: action, occurrences: occurrences))
        // A named hostile-relay step, like a hold, ends at the `release` that names it.
        if kind == .hold || kind == .eclipse || kind == .stale, let name = stepName { holds[name] = rule }
    }
}
