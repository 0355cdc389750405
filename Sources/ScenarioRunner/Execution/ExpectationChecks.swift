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
import Simulation

enum ExpectationChecks {
    static let memberFields = [
        "chats", "failed-peers", "errors", "rejections", "notifications", "channels", "role-rejections", "join-results",
    ]

    /// Which clause each expectation field enforces.
    static func clause(for field: String) -> Clause {
        switch field {
        case "failed-peers": Clause("MIP-00", "KeyPackage Events")
        case "rejections": Clause("MIP-03", "Security Requirements")
        case "role-rejections": Clause("GroupCore", "permission table")
        case "join-results": Clause("GroupCore", "group links")
        case "errors": Clause("GroupCore", "actions")
        case "notifications": Clause("GroupCore", "notification intents")
        case "channels": Clause("GroupCore", "channels")
        default: Clause("MIP-01", "Group State Changes")
        }
    }

    /// Checks an `expect` section (or a `check` step, whose checks are prefixed with `context`).
    /// `ignoring`: keys of a `check` step that its interpreter handles itself.
    static func check(
        _ expectations: YAMLNode?, outcome: Outcome, world: World, file: String, context: String? = nil, ignoring: [String] = []
    ) async -> [CheckResult] {
        guard let expectations else { return [] }
        var results: [CheckResult] = []
        let prefix = context.map { "\($0): " } ?? ""
        do {
            // `decryptable` is the executor's: its probe runs after the outcome is recorded.
            let top = try expectations.fields(of: "expect", allowed: Scenario.expectKeys + ignoring)
            if let converged = try top["converged"]?.boolean("converged") {
                results.append(await Convergence.check(prefix + "converged", in: world, expected: converged))
            }
            guard case .map(let observedMembers) = outcome else { return results }
            for entry in try top["members"].map({ node throws(ScenarioError) -> [YAMLNode.Entry] in
                guard case .mapping(let entries) = node.value else {
                    throw ScenarioError(.wrongType, at: node.location, "expect.members must be a mapping of member labels")
                }
                return entries
            }) ?? [] {
                let fields = try entry.value.fields(of: "expectations of \(entry.key)", allowed: memberFields)
                let observed = observedMembers[entry.key].flatMap { if case .map(let m) = $0 { m } else { nil } }
                for field in memberFields {
                    guard let node = fields[field] else { continue }
                    let expected = expectedOutcome(of: node)
                    // An outcome lists role rejections only when there are some.
                    let actual = observed?[field] ?? (["role-rejections", "join-results"].contains(field) ? .list([]) : .null)
                    let differences = expected.partialDifferences(from: actual, path: "\(entry.key).\(field)")
                    results.append(CheckResult(
                        check: prefix + "member \(entry.key): \(field)", clause: clause(for: field),
                        verdict: differences.isEmpty ? .pass : .fail, expected: expected.summary, observed: actual.summary,
                        detail: differences.map(\.description).joined(separator: "; ")))
                }
            }
        } catch {
            results.append(CheckResult(
                check: "expect section", clause: ScenarioExecutor.scenarioClause, verdict: .fail, detail: error.description))
        }
        return results
    }

    /// A YAML value as an outcome: plain `true`/`false` and integers keep their type, all else is text.
    static func expectedOutcome(of node: YAMLNode) -> Outcome {
        switch node.value {
        case .scalar(let text, let quoted):
            if !quoted, text == "true" || text == "false" { return .bool(text == "true") }
            if !quoted, text == "null" || text == "~" { return .null }
            if !quoted, let integer = Int64(text) { return .integer(integer) }
            return .string(text)
        case .sequence(let items): return .list(items.map(expectedOutcome(of:)))
        case .mapping(let entries): return .map(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, expectedOutcome(of: $0.value)) }))
        }
    }
}

extension Outcome {
    /// Like `differences(from:)`, but a map only constrains the keys it lists.
    func partialDifferences(from observed: Outcome, path: String) -> [OutcomeDifference] {
        switch (self, observed) {
        case (.map(let expected), .map(let actual)):
            return expected.keys.sorted().flatMap { key in
                (expected[key] ?? .null).partialDifferences(from: actual[key] ?? .null, path: "\(path).\(key)")
            }
        case (.list(let expected), .list(let actual)) where expected.count == actual.count:
            return zip(expected, actual).enumerated().flatMap { $1.0.partialDifferences(from: $1.1, path: "\(path)[\($0)]") }
        default:
            return self == observed ? [] : [OutcomeDifference(path: path, expected: summary, observed: observed.summary)]
        }
    }
}
