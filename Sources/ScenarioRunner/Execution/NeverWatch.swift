// The `never` oracle of a `wait` step: conditions checked after every step of the world.
import GroupCore
import ScenarioModel
import Simulation

struct NeverWatch {
    let conditions: [NeverCondition]
    /// Per member: errors and rejections so far.
    var errors: [String: Int] = [:]
    var rejections: [String: Int] = [:]

    init(_ conditions: [NeverCondition], world: World) async {
        self.conditions = conditions
        guard !conditions.isEmpty else { return }
        _ = await violation(in: world)
    }

    /// The first condition that arose since the last call, described; nil if none.
    mutating func violation(in world: World) async -> String? {
        guard !conditions.isEmpty else { return nil }
        var found: String?
        for label in world.labels {
            guard let state = await world.member(label)?.core.state() else { continue }
            if conditions.contains(.errors), state.errors.count > errors[label, default: 0] {
                let error = state.errors[errors[label, default: 0]]
                found = found ?? "at \(world.now) \(label) recorded error \(error.code.name): \(error.message)"
            }
            if conditions.contains(.rejections), state.rejections.count > rejections[label, default: 0] {
                let rejection = state.rejections[rejections[label, default: 0]]
                found = found ?? "at \(world.now) \(label) rejected kind \(rejection.kind): \(rejection.reason)"
            }
            errors[label] = state.errors.count
            rejections[label] = state.rejections.count
        }
        return found
    }
}
