// Faults whose selector never matched: a `fault` step that selected no frame during the whole run
// did nothing, and a scenario that relied on it tested less than it says. Reported as an `info`
// check naming the step (a selector that can never match is refused when the file loads:
// Model/FaultFields.swift). Read from the traces, which record every rule's installation and
// every time it acts.
import ScenarioModel

/// A selector fault step, and where the traces stood when it ran.
struct FaultStepRecord {
    let title: String
    let location: SourceLocation
    let apply: String
    let networkStart: Int
    let logStart: Int
}

extension FaultKind {
    /// Faults that install a rule on selected frames (or, `tamper`, on a member's deliveries),
    /// as opposed to a state change of a relay or a member's links.
    var selectsFrames: Bool {
        switch self {
        case .drop, .delay, .duplicate, .reorder, .reject, .withholdOK, .hold, .tamper, .restart, .eclipse, .stale: true
        case .down, .up, .partition, .heal, .blobTamper, .blobLose: false
        }
    }
}

extension StepInterpreter {
    /// Remembers a fault step that was just applied, if it selects frames, or an `inject` step
    /// handed to one member (`to`), which reaches only that member's live subscriptions.
    mutating func noteFault(_ step: Step, title: String, networkStart: Int, logStart: Int) {
        let apply: String
        switch step.action {
        case .inject(let inject) where inject.to != nil: apply = "inject"
        case .fault(let fault) where fault.kind.selectsFrames: apply = fault.kind.rawValue
        default: return
        }
        faultSteps.append(
            FaultStepRecord(title: title, location: step.location, apply: apply, networkStart: networkStart, logStart: logStart))
    }

    /// One `info` check per selector fault that never acted on a frame.
    func unmatchedSelectors() -> [CheckResult] {
        let network = world.network.trace.entries
        let log = world.log.entries
        var out: [CheckResult] = []
        for record in faultSteps {
            let acted: Bool
            if record.apply == "inject" {
                guard let handed = network.dropFirst(record.networkStart).first(where: { $0.category == "inject" }) else { continue }
                guard handed.detail.hasPrefix("not connected") || handed.detail.hasSuffix(" on 0 subscription(s)") else { continue }
                out.append(
                    CheckResult(
                        check: "\(record.title): injected event reached its member", clause: ScenarioExecutor.scenarioClause,
                        verdict: .info,
                        detail:
                            "no live subscription of the member took the event (\(handed.detail)), so it did nothing (at \(record.location))"
                    ))
                continue
            } else if record.apply == "tamper" {
                guard
                    let installed = log.dropFirst(record.logStart).first(where: { $0.category == "fault" && $0.detail.hasPrefix("tamper ") }
                    )
                else { continue }
                let applied = "tampered " + installed.detail.dropFirst("tamper ".count).replacingOccurrences(of: " by ", with: " event by ")
                acted = log.contains { $0.category == "fault" && $0.subject == installed.subject && $0.detail == applied }
            } else {
                guard
                    let installed = network.dropFirst(record.networkStart).first(where: {
                        $0.category == "fault" && $0.subject.hasPrefix("rule-") && $0.detail.hasPrefix("install ")
                    })
                else { continue }
                let prefix = installed.subject + " "
                acted = network.contains { $0.category == "fault" && $0.detail.hasPrefix(prefix) }
            }
            guard !acted else { continue }
            out.append(
                CheckResult(
                    check: "\(record.title): fault selector matched", clause: ScenarioExecutor.scenarioClause, verdict: .info,
                    detail: "the '\(record.apply)' fault selected no frame during the run, so it did nothing (at \(record.location))"))
        }
        return out
    }
}
