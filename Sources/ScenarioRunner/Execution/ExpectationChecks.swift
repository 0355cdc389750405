// The `expect` section: what a scenario says each member must end up with, and whether the group
// must converge. A member expectation lists only the fields it cares about; each field names the
// clause it enforces.
//
//   expect:
//     converged: true
//     members:
//       alice:
//         chats: [{ name: Team, members: [alice, bob], admins: [alice], messages: ["bob: hi"] }]
//         failed-peers: [{ peer: dave, reason: no_key_package }]
//         errors: [core.allPeersFailed]
//         rejections: [commit_from_non_admin]
//         notifications: [{ title: bob in Team, body: hi, chat: Team, sender: bob, group: true, payload: ok }]
import ScenarioModel
import Simulation

enum ExpectationChecks {
    /// Which clause each expectation field enforces.
    static func clause(for field: String) -> Clause {
        switch field {
        case "failed-peers", "pending-decisions": Clause("MIP-00", "KeyPackage Events")
        case "rejections": Clause("MIP-03", "Security Requirements")
        case "role-rejections": Clause("GroupCore", "permission table")
        case "join-results", "prepared-groups": Clause("GroupCore", "group links")
        case "errors": Clause("GroupCore", "actions")
        case "notifications": Clause("GroupCore", "notification intents")
        case "channels": Clause("GroupCore", "channels")
        case "chat-order", "open-chat", "busy": Clause("GroupCore", "state model")
        case "invitations": Clause("MIP-02", "Welcome Events")
        case "chat-events": Clause("MIP-01", "Group State Changes")
        default: Clause("MIP-01", "Group State Changes")
        }
    }

    /// Checks an `expect` section (or a `check` step's, whose checks are prefixed with `context`).
    /// The expectations were read and checked when the file loaded.
    static func check(
        _ expectations: Expectations?, outcome: Outcome, world: World, file: String, context: String? = nil
    ) async -> [CheckResult] {
        guard let expectations else { return [] }
        var results: [CheckResult] = []
        let prefix = context.map { "\($0): " } ?? ""
        // `decryptable` is the executor's: its probe runs after the outcome is recorded.
        if let converged = expectations.converged {
            results.append(await Convergence.check(prefix + "converged", in: world, expected: converged))
        }
        guard case .map(let observedMembers) = outcome else { return results }
        for member in expectations.members {
            let observed = observedMembers[member.label].flatMap { if case .map(let m) = $0 { m } else { nil } }
            for field in member.fields {
                var expected = Outcome(field.value)
                // A list written only when non-empty (OutcomeSchema) reads as `[]` when absent.
                var actual = observed?[field.name] ?? OutcomeSchema.Member.absentValue(of: field.name)
                if field.name == "chats", let byName = Self.inNameOrder(expected, actual) { (expected, actual) = byName }
                let differences = expected.partialDifferences(from: actual, path: "\(member.label).\(field.name)")
                results.append(
                    CheckResult(
                        check: prefix + "member \(member.label): \(field.name)", clause: clause(for: field.name),
                        verdict: differences.isEmpty ? .pass : .fail, expected: expected.summary, observed: actual.summary,
                        detail: differences.map(\.description).joined(separator: "; ")))
            }
        }
        return results
    }
}

extension ExpectationChecks {
    /// Both chat lists sorted by name, when every chat on each side has a name of its own; nil
    /// otherwise (then they are compared as listed). The outcome sorts chats by what vectors
    /// store, so a second chat's epoch would otherwise decide which expected entry meets which.
    static func inNameOrder(_ expected: Outcome, _ actual: Outcome) -> (Outcome, Outcome)? {
        func sortedByName(_ list: Outcome) -> Outcome? {
            guard case .list(let chats) = list else { return nil }
            let names = chats.map { chat -> String? in
                if case .map(let fields) = chat, case .string(let name)? = fields["name"] { name } else { nil }
            }
            let known = names.compactMap { $0 }
            guard known.count == chats.count, Set(known).count == known.count else { return nil }
            return .list(zip(known, chats).sorted { $0.0 < $1.0 }.map(\.1))
        }
        guard let expected = sortedByName(expected), let actual = sortedByName(actual) else { return nil }
        return (expected, actual)
    }
}

extension Outcome {
    /// An expected value as an outcome, to compare with what was observed.
    init(_ value: ExpectedValue) {
        switch value {
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .integer(i)
        case .null: self = .null
        case .string(let s): self = .string(s)
        case .list(let items): self = .list(items.map(Outcome.init))
        case .map(let entries): self = .map(entries.mapValues(Outcome.init))
        }
    }
}

extension Outcome {
    /// Like `differences(from:)`, but a map only constrains the keys it lists.
    func partialDifferences(from observed: Outcome, path: String) -> [OutcomeDifference] {
        switch (self, observed) {
        case (.map(let expected), .map(let actual)):
            return expected.keys.sorted().flatMap { key in
                // A chat lists `history` only while it holds something: `[]` matches its absence.
                let absent = OutcomeSchema.Chat.absentValue(of: key)
                return (expected[key] ?? .null).partialDifferences(from: actual[key] ?? absent, path: "\(path).\(key)")
            }
        case (.list(let expected), .list(let actual)) where expected.count == actual.count:
            return zip(expected, actual).enumerated().flatMap { $1.0.partialDifferences(from: $1.1, path: "\(path)[\($0)]") }
        default:
            return self == observed ? [] : [OutcomeDifference(path: path, expected: summary, observed: observed.summary)]
        }
    }
}
