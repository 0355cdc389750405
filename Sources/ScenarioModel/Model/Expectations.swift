// The `expect` section (and a `check` step's expectations) as typed values, read when the file
// loads. A member expectation lists only the fields it cares about; the runner compares each with
// the member's observed outcome (ExpectationChecks).
//
//   expect:
//     converged: true
//     members:
//       alice:
//         chats: [{ name: Team, members: [alice, bob], admins: [alice], messages: ["bob: hi"] }]
//         errors: [core.allPeersFailed]

/// An expected value as written: plain `true`/`false`, `null`/`~` and integers keep their type,
/// all else is text.
package indirect enum ExpectedValue: Sendable, Hashable {
    case bool(Bool)
    case integer(Int64)
    case null
    case string(String)
    case list([ExpectedValue])
    case map([String: ExpectedValue])

    package init(_ node: YAMLNode) {
        switch node.value {
        case .scalar(let text, let quoted):
            if !quoted, text == "true" || text == "false" {
                self = .bool(text == "true")
            } else if !quoted, text == "null" || text == "~" {
                self = .null
            } else if !quoted, let integer = Int64(text) {
                self = .integer(integer)
            } else {
                self = .string(text)
            }
        case .sequence(let items): self = .list(items.map(ExpectedValue.init))
        // Keys are unique: the loader refuses duplicate keys.
        case .mapping(let entries): self = .map(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, ExpectedValue($0.value)) }))
        }
    }
}

/// What one member must show.
package struct MemberExpectation: Sendable, Hashable {
    package struct Field: Sendable, Hashable {
        /// One of `Expectations.memberFields`.
        package let name: String
        package let value: ExpectedValue
    }

    package let label: String
    /// In the order of `Expectations.memberFields`.
    package let fields: [Field]
}

/// Expected outcome of a scenario or of a `check` step.
package struct Expectations: Sendable, Hashable {
    package let converged: Bool?
    /// Run the decryptability probe after the outcome is recorded (the `expect` section only).
    package let decryptable: Bool
    package let members: [MemberExpectation]

    /// The keys of `expect`.
    package static let keys = ["converged", "decryptable", "members"]
    /// The fields a member expectation may list.
    package static let memberFields = [
        "chats", "chat-order", "open-chat", "chat-events", "busy", "failed-peers", "pending-decisions", "errors", "rejections",
        "notifications",
        "channels", "role-rejections", "join-results", "invitations", "prepared-groups",
        "route",
    ]

    /// Reads an `expect` section, so that a typo is an error at its position rather than a
    /// failing check after the run.
    static func load(_ node: YAMLNode, members: [String]) throws(ScenarioError) -> Expectations {
        let f = try node.fields(of: "expect", allowed: keys)
        return Expectations(
            converged: try f["converged"]?.boolean("converged"),
            decryptable: try f["decryptable"]?.boolean("decryptable") ?? false,
            members: try f["members"].map { node throws(ScenarioError) in
                try memberExpectations(node, what: "expect.members", members: members)
            } ?? [])
    }

    /// A mapping of member labels to their expected fields.
    static func memberExpectations(_ node: YAMLNode, what: String, members: [String]) throws(ScenarioError) -> [MemberExpectation] {
        guard case .mapping(let entries) = node.value else {
            throw ScenarioError(.wrongType, at: node.location, "\(what) must be a mapping of member labels")
        }
        var out: [MemberExpectation] = []
        for entry in entries {
            // A key may be a run of labels (m001..m149): the same expectations for each.
            let labels = try Scenario.references(
                YAMLNode(value: .scalar(entry.key, quoted: false), location: entry.keyLocation), what, kind: "member",
                known: members, single: LabelRange(entry.key) == nil)
            let fields = try entry.value.fields(of: "expectations of \(entry.key)", allowed: memberFields)
            for label in labels {
                out.append(
                    MemberExpectation(
                        label: label,
                        fields: memberFields.compactMap { name in
                            fields[name].map { MemberExpectation.Field(name: name, value: ExpectedValue($0)) }
                        }))
            }
        }
        return out
    }
}
