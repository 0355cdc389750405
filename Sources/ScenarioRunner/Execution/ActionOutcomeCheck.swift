// The check every scenario gets: no action a member's user started is left without an outcome
// once the run is over (docs/group-core.md, "Action outcomes"). GroupCore records each action and
// how it ended (done, a typed error, a question to the user); an action still open after the run
// vanished without a word, which is what this check exists to catch.
import GroupCore
import Simulation

enum ActionOutcomeCheck {
    static let clause = Clause("GroupCore", "action outcomes")

    static func check(in world: World) async -> CheckResult {
        var open: [String] = []
        var total = 0
        for label in world.labels {
            guard let records = await world.member(label)?.core.actionRecords() else { continue }
            total += records.count
            for record in records where record.outcome == nil {
                open.append("\(label)'s \(record.verb) (action \(record.number))")
            }
        }
        return CheckResult(
            check: "every action ends in an outcome", clause: clause, verdict: open.isEmpty ? .pass : .fail,
            expected: "every action dispatched ends done, in a typed error or in a question to the user",
            observed: open.isEmpty ? "all \(total) ended" : "without an outcome: \(open.joined(separator: "; "))")
    }
}
