import Simulation
import GroupCore

// A scenario file, loaded and checked: every member, relay and step reference resolves, step
// names are unique, and each step's fields match the vocabulary.

/// A relay of the simulated world.
public struct RelaySpec: Sendable, Hashable {
    public let name: String
    /// Pika-style roles: `key-packages`, `inbox`, `group`.
    public let roles: [String]
    /// Policies such as `reject-protected` or `down`.
    public let policies: [String]
    public let location: SourceLocation
}

/// A simulated member.
public struct MemberSpec: Sendable, Hashable {
    public let label: String
    /// `swift`, `mdk`, or nil for the engine chosen on the command line.
    public let engine: String?
    public let profileName: String?
    public let relays: [String]
    /// False for a member that never publishes a key package (it cannot be invited).
    public let publishesKeyPackage: Bool
    /// How the member's app core merges its accepted commits (`merges-own-commit`).
    public let ownCommitMerge: CoreConfiguration.Behaviour.OwnCommitMerge
    /// True for a member whose key package is NIP-70 protected (`["-"]`).
    public var protectsKeyPackage: Bool = false
    /// True for a member whose core hands kind-445 events that fail Nostr verification to its
    /// engine (an engine conformance probe; see `CoreConfiguration.Behaviour`).
    public var handsUnverifiedGroupEvents: Bool = false
    /// `honest`, `alters` or `forges` for a chat relay (a channel forwarding service); nil otherwise.
    public var chatRelay: String? = nil
    public let location: SourceLocation
}

/// One step of a scenario.
public struct Step: Sendable, Hashable {
    public let name: String?
    public let verb: String
    /// The verb's value, already checked against the vocabulary.
    public let argument: YAMLNode
    /// Nested steps of a `parallel` block.
    public let substeps: [Step]
    public let location: SourceLocation
}

/// A loaded scenario.
public struct Scenario: Sendable {
    public let file: String
    public let name: String
    public let description: String
    public let clauses: [String]
    public let relays: [RelaySpec]
    public let members: [MemberSpec]
    public let steps: [Step]
    /// The `expect` section, interpreted by the oracles.
    public let expectations: YAMLNode?
    /// `expect: { decryptable: true }`: the decryptability probe runs after the outcome is recorded.
    public let decryptable: Bool
    /// Whether the outcome is stored as a vector (`vector: false` for scenarios whose outcome
    /// depends on the seed, such as races judged by convergence alone).
    public let storesVector: Bool

    static let topLevelKeys = ["name", "description", "clauses", "vector", "relays", "members", "steps", "expect"]
    static let roles = ["discovery", "key-packages", "inbox", "group"]
    static let policies = ["reject-protected", "down", "require-auth", "keeps-expired"]
    static let engines = ["swift", "mdk"]
    static let ownCommitMerges = CoreConfiguration.Behaviour.OwnCommitMerge.allCases.map(\.rawValue)
    static let chatRelayConducts = ["honest", "alters", "forges"]

    /// Loads and checks a scenario.
    /// - Parameters:
    ///   - text: the YAML text.
    ///   - file: the path used in error locations.
    /// - Throws: the first `ScenarioError`, positioned at the offending node.
    public init(yaml text: String, file: String) throws(ScenarioError) {
        let root = try YAMLLoader.load(text, file: file)
        let top = try root.fields(of: "the scenario", allowed: Self.topLevelKeys, required: ["name", "members", "steps"])
        self.file = file
        name = try top.required("name").string("name")
        description = try top["description"]?.string("description") ?? ""
        clauses = try top["clauses"]?.stringList("clauses") ?? []
        storesVector = try top["vector"]?.boolean("vector") ?? true

        var relays: [RelaySpec] = []
        for node in try top["relays"]?.list("relays") ?? [] {
            let f = try node.fields(of: "a relay", allowed: ["name", "roles", "policies"], required: ["name"])
            let relayName = try f.required("name").string("relay name")
            var roles: [String] = []
            if let rolesNode = f["roles"] {
                for item in try rolesNode.list("roles") { roles.append(try item.word("a relay role", oneOf: Self.roles)) }
            }
            var policies: [String] = []
            if let policyNode = f["policies"] {
                for item in try policyNode.list("policies") { policies.append(try item.word("a relay policy", oneOf: Self.policies)) }
            }
            try Self.checkUnique(relayName, at: f.location, among: relays.map(\.name), what: "relay")
            relays.append(RelaySpec(name: relayName, roles: roles, policies: policies, location: f.location))
        }
        // Without a relays section the world runs its standard relays, which steps may name.
        let relayNames = relays.isEmpty ? WorldConfiguration.standardRelays.map(\.name) : relays.map(\.name)

        var members: [MemberSpec] = []
        for node in try top.required("members").list("members") {
            let f = try node.fields(
                of: "a member",
                allowed: [
                    "label", "engine", "name", "relays", "publishes-key-package", "merges-own-commit", "protected-key-package",
                    "unverified-group-events", "chat-relay",
                ],
                required: ["label"])
            let label = try f.required("label").string("member label")
            let engine = try f["engine"]?.word("engine", oneOf: Self.engines)
            let memberRelays = try f["relays"].map { node throws(ScenarioError) in
                try Self.references(node, "relays", kind: "relay", known: relayNames)
            } ?? []
            try Self.checkUnique(label, at: f.location, among: members.map(\.label), what: "member")
            var member = MemberSpec(
                label: label, engine: engine, profileName: try f["name"]?.string("name"), relays: memberRelays,
                publishesKeyPackage: try f["publishes-key-package"]?.boolean("publishes-key-package") ?? true,
                ownCommitMerge: try f["merges-own-commit"].map { node throws(ScenarioError) in
                    CoreConfiguration.Behaviour.OwnCommitMerge(
                        rawValue: try node.word("merges-own-commit", oneOf: Self.ownCommitMerges)) ?? .asReceived
                } ?? .asReceived,
                location: f.location)
            member.protectsKeyPackage = try f["protected-key-package"]?.boolean("protected-key-package") ?? false
            member.handsUnverifiedGroupEvents = try f["unverified-group-events"]?.boolean("unverified-group-events") ?? false
            member.chatRelay = try f["chat-relay"]?.word("chat-relay", oneOf: Self.chatRelayConducts)
            members.append(member)
        }

        var context = StepContext(members: members.map(\.label), relays: relayNames)
        steps = try Self.steps(try top.required("steps").list("steps"), context: &context)
        expectations = top["expect"]
        decryptable = try expectations.map { node throws(ScenarioError) in
            try Self.checkExpectations(node, members: members.map(\.label))
        } ?? false
        self.relays = relays
        self.members = members
    }

    struct StepContext {
        let members: [String]
        let relays: [String]
        var stepNames: [String] = []
    }

    static func steps(_ nodes: [YAMLNode], context: inout StepContext) throws(ScenarioError) -> [Step] {
        var out: [Step] = []
        for node in nodes { out.append(try step(node, context: &context)) }
        return out
    }

    static func step(_ node: YAMLNode, context: inout StepContext) throws(ScenarioError) -> Step {
        guard case .mapping(let entries) = node.value else {
            throw ScenarioError(.wrongType, at: node.location, "a step must be a mapping, found \(node.kindName)")
        }
        let verbEntries = entries.filter { $0.key != "name" }
        guard let verbEntry = verbEntries.first else {
            throw ScenarioError(.unknownStep, at: node.location, "a step needs a verb, one of: \(verbList)")
        }
        guard verbEntries.count == 1 else {
            throw ScenarioError(
                .ambiguousStep, at: verbEntries[1].keyLocation,
                "a step has exactly one verb; found '\(verbEntries[0].key)' and '\(verbEntries[1].key)'")
        }
        guard let verb = StepVocabulary.verb(named: verbEntry.key) else {
            let hint = Fields.closest(to: verbEntry.key, in: StepVocabulary.verbs.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            throw ScenarioError(.unknownStep, at: verbEntry.keyLocation, "unknown step '\(verbEntry.key)'\(hint); steps are: \(verbList)")
        }
        var name: String?
        if let nameNode = entries.first(where: { $0.key == "name" })?.value {
            let stepName = try nameNode.string("step name")
            try checkUnique(stepName, at: nameNode.location, among: context.stepNames, what: "step name")
            name = stepName
        }
        let argument = verbEntry.value
        var substeps: [Step] = []
        switch verb.shape {
        case .steps:
            substeps = try steps(try argument.list(verb.name), context: &context)
        case .fields(let specs):
            try check(argument, verb: verb, specs: specs, context: context)
        case .word(let words):
            _ = try argument.word(verb.name, oneOf: words)
        }
        // Registered after its body so that a step cannot refer to itself.
        if let name { context.stepNames.append(name) }
        return Step(name: name, verb: verb.name, argument: argument, substeps: substeps, location: node.location)
    }

    static func check(_ node: YAMLNode, verb: StepVerb, specs: [FieldSpec], context: StepContext) throws(ScenarioError) {
        try check(node, of: "step '\(verb.name)'", owner: verb.name, specs: specs, context: context)
        if verb.name == "inject" { try InjectFields.checkSource(node) }
        if verb.name == "fault" { try FaultFields.checkSelector(node) }
    }

    static func check(_ node: YAMLNode, of description: String, owner: String, specs: [FieldSpec], context: StepContext) throws(ScenarioError) {
        let f = try node.fields(
            of: description, allowed: specs.map(\.name), required: specs.filter(\.required).map(\.name))
        for spec in specs {
            guard let value = f[spec.name] else { continue }
            let what = "'\(spec.name)' of \(owner)"
            switch spec.type {
            case .member: _ = try references(value, what, kind: "member", known: context.members, single: true)
            case .members: _ = try references(value, what, kind: "member", known: context.members)
            case .relay: _ = try references(value, what, kind: "relay", known: context.relays, single: true)
            case .relays: _ = try references(value, what, kind: "relay", known: context.relays)
            case .text: _ = try value.string(what)
            case .integer(let range): _ = try value.integer(what, in: range)
            case .boolean: _ = try value.boolean(what)
            case .duration: _ = try value.duration(what)
            case .word(let words): _ = try value.word(what, oneOf: words)
            case .words(let words):
                let items: [YAMLNode] = if case .sequence(let list) = value.value { list } else { [value] }
                for item in items { _ = try item.word(what, oneOf: words) }
            case .stepName: _ = try references(value, what, kind: "step", known: context.stepNames, single: true)
            case .tags: _ = try value.tags(what)
            case .fields(let nested):
                try check(value, of: what, owner: "\(owner) \(spec.name)", specs: nested, context: context)
            case .expectations:
                guard case .mapping(let entries) = value.value else {
                    throw ScenarioError(.wrongType, at: value.location, "\(what) must be a mapping of member labels")
                }
                for entry in entries {
                    _ = try references(
                        YAMLNode(value: .scalar(entry.key, quoted: false), location: entry.keyLocation), what, kind: "member",
                        known: context.members, single: true)
                }
            }
        }
    }

    static func references(
        _ node: YAMLNode, _ what: String, kind: String, known: [String], single: Bool = false
    ) throws(ScenarioError) -> [String] {
        let items: [YAMLNode]
        if case .sequence(let list) = node.value {
            guard !single else { throw ScenarioError(.wrongType, at: node.location, "\(what) must name one \(kind), found a list") }
            items = list
        } else {
            items = [node]
        }
        var names: [String] = []
        for item in items {
            let name = try item.string(what)
            guard known.contains(name) else {
                let hint = Fields.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                let declared = known.isEmpty ? "none are declared" : "declared: \(known.joined(separator: ", "))"
                throw ScenarioError(.unknownReference, at: item.location, "unknown \(kind) '\(name)' in \(what)\(hint); \(declared)")
            }
            names.append(name)
        }
        return names
    }

    static func checkUnique(_ name: String, at location: SourceLocation, among existing: [String], what: String) throws(ScenarioError) {
        guard !existing.contains(name) else {
            throw ScenarioError(.duplicateName, at: location, "duplicate \(what) '\(name)'")
        }
    }

    /// The keys of `expect` and what each holds.
    static let expectKeys = ["converged", "decryptable", "members"]

    /// Checks the shape of an `expect` section when the file loads, so that a typo is an error at
    /// its position rather than a failing check after the run.
    /// Returns whether the section asks for the decryptability probe (`decryptable`).
    static func checkExpectations(_ node: YAMLNode, members: [String]) throws(ScenarioError) -> Bool {
        let f = try node.fields(of: "expect", allowed: expectKeys)
        _ = try f["converged"]?.boolean("converged")
        let decryptable = try f["decryptable"]?.boolean("decryptable") ?? false
        guard let byMember = f["members"] else { return decryptable }
        guard case .mapping(let entries) = byMember.value else {
            throw ScenarioError(.wrongType, at: byMember.location, "expect.members must be a mapping of member labels")
        }
        for entry in entries {
            _ = try references(
                YAMLNode(value: .scalar(entry.key, quoted: false), location: entry.keyLocation), "expect.members", kind: "member",
                known: members, single: true)
            _ = try entry.value.fields(of: "expectations of \(entry.key)", allowed: ExpectationChecks.memberFields)
        }
        return decryptable
    }

    static var verbList: String { StepVocabulary.verbs.map(\.name).joined(separator: ", ") }
}
