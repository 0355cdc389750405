// A scenario file, loaded and checked: every member, relay and step reference resolves, step
// names are unique, and each step's fields match the vocabulary.

/// A relay of the simulated world.
package struct RelaySpec: Sendable, Hashable {
    package let name: String
    /// Pika-style roles: `key-packages`, `inbox`, `group`.
    package let roles: [RelayRoleName]
    /// Policies such as `reject-protected` or `down`.
    package let policies: [RelayPolicyName]
    package let location: SourceLocation
    /// `max-event-bytes`: the largest event the relay stores (its NIP-11 limit); nil keeps the
    /// default of 64 KiB (strfry's). nostr-rs-relay documents 128 KiB (131072).
    package var maximumEventBytes: Int? = nil
    /// `max-results`: how many stored events the relay serves for a filter without `limit` (the
    /// newest; rust-nostr's LocalRelay and strfry serve 500); nil serves all.
    package var maximumResults: Int? = nil
}

/// A simulated member.
package struct MemberSpec: Sendable, Hashable {
    package let label: String
    /// `swift`, `mdk`, or nil for the engine chosen on the command line.
    package let engine: EngineName?
    package let profileName: String?
    package let relays: [String]
    /// False for a member that never publishes a key package (it cannot be invited).
    package let publishesKeyPackage: Bool
    /// How the member's app core merges its accepted commits (`merges-own-commit`).
    package let ownCommitMerge: OwnCommitMergeName
    /// True for a member whose key package is NIP-70 protected (`["-"]`).
    package var protectsKeyPackage: Bool = false
    /// True for a member whose core hands kind-445 events that fail Nostr verification to its
    /// engine (an engine conformance probe; see `CoreConfiguration.Behaviour`).
    package var handsUnverifiedGroupEvents: Bool = false
    /// `honest`, `alters` or `forges` for a chat relay (a channel forwarding service); nil otherwise.
    package var chatRelay: ChatRelayConductName? = nil
    /// How the member answers invitations (default `automatic`: joined as they arrive).
    package var invitations: InvitationAnswerName = .automatic
    /// The member's kind-0 profile picture URL (none by default).
    package var picture: String? = nil
    /// How the channel carrying the member's core updates to its UI host misbehaves
    /// (`update-delivery`); empty: in order and whole.
    package var updateDelivery: [UpdateDeliveryName] = []
    /// The Marmot profile the member's engine speaks (`profile:`); nil: the run's (`run --profile`).
    package var profile: ProfileName? = nil
    /// Engine test knob (`retained-event-ids`, issue 30 N10): how many wrapper ids per group an
    /// engine that has the knob remembers, in place of its product cap; nil: the product cap.
    package var retainedEventIDs: Int? = nil
    package let location: SourceLocation
}

/// A loaded scenario.
package struct Scenario: Sendable {
    package let file: String
    package let name: String
    package let description: String
    package let clauses: [String]
    package let relays: [RelaySpec]
    package let members: [MemberSpec]
    package var steps: [Step]
    /// The `expect` section, checked by the oracles.
    package let expectations: Expectations?
    /// `expect: { decryptable: true }`: the decryptability probe runs after the outcome is recorded.
    package var decryptable: Bool { expectations?.decryptable ?? false }
    /// Whether the outcome is stored as a vector (`vector: false` for scenarios whose outcome
    /// depends on the seed, such as races judged by convergence alone).
    package let storesVector: Bool
    /// The profiles the scenario applies to (`profiles:`; default every profile): a run under
    /// another profile does not run it and reports it as not applicable (docs/scenarios.md,
    /// "Profiles").
    package let profiles: [ProfileName]

    /// Whether a run under `profile` runs this scenario.
    package func applies(to profile: ProfileName) -> Bool { profiles.contains(profile) }

    static let topLevelKeys = ["name", "description", "clauses", "vector", "profiles", "relays", "members", "steps", "expect"]
    /// Members one world may hold: bounds the work a file can ask for (1,000: issue 17's largest
    /// group, `ci/bench`'s create-1000).
    static let maximumMemberCount: Int64 = 1_000
    /// The event limits a relay may declare (`max-event-bytes`): from 1 KiB to 16 MiB, which
    /// covers every relay default we know (strfry 64 KiB, nostr-rs-relay 128-256 KiB).
    package static let relayEventLimitRange: ClosedRange<Int64> = 1_024...(16 << 20)
    /// `max-results`: from one event to a million.
    package static let relayResultLimitRange: ClosedRange<Int64> = 1...1_000_000
    /// `retained-event-ids`: from a handful to our engine's product cap (4,096); a knob may only
    /// make a cap smaller, never lift it.
    package static let retainedEventIDRange: ClosedRange<Int64> = 8...4_096

    /// Loads and checks a scenario.
    /// - Parameters:
    ///   - text: the YAML text.
    ///   - file: the path used in error locations.
    /// - Throws: the first `ScenarioError`, positioned at the offending node.
    package init(yaml text: String, file: String) throws(ScenarioError) {
        let root = try YAMLLoader.load(text, file: file)
        let top = try root.fields(of: "the scenario", allowed: Self.topLevelKeys, required: ["name", "members", "steps"])
        self.file = file
        name = try top.required("name").string("name")
        description = try top["description"]?.string("description") ?? ""
        clauses = try top["clauses"]?.stringList("clauses") ?? []
        storesVector = try top["vector"]?.boolean("vector") ?? true
        profiles = try top["profiles"].map(Self.profiles) ?? ProfileName.allCases

        var relays: [RelaySpec] = []
        for node in try top["relays"]?.list("relays") ?? [] {
            let f = try node.fields(
                of: "a relay", allowed: ["name", "roles", "policies", "max-event-bytes", "max-results"], required: ["name"])
            let relayName = try f.required("name").string("relay name")
            var roles: [RelayRoleName] = []
            if let rolesNode = f["roles"] {
                for item in try rolesNode.list("roles") { roles.append(try item.word("a relay role", as: RelayRoleName.self)) }
            }
            var policies: [RelayPolicyName] = []
            if let policyNode = f["policies"] {
                for item in try policyNode.list("policies") { policies.append(try item.word("a relay policy", as: RelayPolicyName.self)) }
            }
            try Self.checkUnique(relayName, at: f.location, among: relays.map(\.name), what: "relay")
            var relay = RelaySpec(name: relayName, roles: roles, policies: policies, location: f.location)
            relay.maximumEventBytes = try f["max-event-bytes"].map { node throws(ScenarioError) in
                Int(try node.integer("max-event-bytes", in: Self.relayEventLimitRange))
            }
            relay.maximumResults = try f["max-results"].map { node throws(ScenarioError) in
                Int(try node.integer("max-results", in: Self.relayResultLimitRange))
            }
            relays.append(relay)
        }
        // Without a relays section the world runs its standard relays, which steps may name.
        let relayNames = relays.isEmpty ? Self.standardRelayNames : relays.map(\.name)

        var members: [MemberSpec] = []
        for node in try top.required("members").list("members") {
            let f = try node.fields(
                of: "a member",
                allowed: [
                    "label", "engine", "name", "relays", "publishes-key-package", "merges-own-commit", "protected-key-package",
                    "unverified-group-events", "chat-relay", "count", "update-delivery", "profile", "retained-event-ids", "invitations",
                    "picture",
                ],
                required: ["label"])
            let label = try f.required("label").string("member label")
            let engine = try f["engine"]?.word("engine", as: EngineName.self)
            let memberRelays =
                try f["relays"].map { node throws(ScenarioError) in
                    try Self.references(node, "relays", kind: "relay", known: relayNames)
                } ?? []
            // `count: N` declares N numbered members with these fields (LabelRange).
            let count = try f["count"]?.integer("count", in: 1...Self.maximumMemberCount)
            if count != nil, f["name"] != nil {
                throw ScenarioError(
                    .invalidValue, at: f.location, "a member entry with 'count' declares several members and takes no 'name'")
            }
            let labels = count.map { LabelRange.declared(label, count: Int($0)) } ?? [label]
            for label in labels {
                try Self.checkUnique(label, at: f.location, among: members.map(\.label), what: "member")
                var member = MemberSpec(
                    label: label, engine: engine, profileName: try f["name"]?.string("name"), relays: memberRelays,
                    publishesKeyPackage: try f["publishes-key-package"]?.boolean("publishes-key-package") ?? true,
                    ownCommitMerge: try f["merges-own-commit"].map { node throws(ScenarioError) in
                        try node.word("merges-own-commit", as: OwnCommitMergeName.self)
                    } ?? .asReceived,
                    location: f.location)
                member.protectsKeyPackage = try f["protected-key-package"]?.boolean("protected-key-package") ?? false
                member.handsUnverifiedGroupEvents = try f["unverified-group-events"]?.boolean("unverified-group-events") ?? false
                member.chatRelay = try f["chat-relay"]?.word("chat-relay", as: ChatRelayConductName.self)
                member.invitations = try f["invitations"]?.word("invitations", as: InvitationAnswerName.self) ?? .automatic
                member.picture = try f["picture"]?.string("picture")
                member.profile = try f["profile"]?.word("profile", as: ProfileName.self)
                member.retainedEventIDs = try f["retained-event-ids"].map { node throws(ScenarioError) in
                    Int(try node.integer("retained-event-ids", in: Self.retainedEventIDRange))
                }
                for item in try f["update-delivery"]?.list("update-delivery") ?? [] {
                    let name = try item.word("an update-delivery fault", as: UpdateDeliveryName.self)
                    if !member.updateDelivery.contains(name) { member.updateDelivery.append(name) }
                }
                members.append(member)
            }
        }
        guard members.count <= Self.maximumMemberCount else {
            throw ScenarioError(
                .invalidValue, at: root.location, "\(members.count) members; a world holds at most \(Self.maximumMemberCount)")
        }

        var context = StepContext(members: members.map(\.label), relays: relayNames)
        steps = try Self.steps(try top.required("steps").list("steps"), context: &context)
        expectations = try top["expect"].map { node throws(ScenarioError) in
            try Expectations.load(node, members: members.map(\.label))
        }
        self.relays = relays
        self.members = members
    }

    /// `profiles:`: a non-empty list of distinct profile names.
    static func profiles(_ node: YAMLNode) throws(ScenarioError) -> [ProfileName] {
        var out: [ProfileName] = []
        for item in try node.list("profiles") {
            let name = try item.word("a profile", as: ProfileName.self)
            if out.contains(name) { throw ScenarioError(.invalidValue, at: item.location, "profile '\(name.rawValue)' is listed twice") }
            out.append(name)
        }
        guard !out.isEmpty else {
            throw ScenarioError(.invalidValue, at: node.location, "'profiles' names no profile (leave it out to apply to every profile)")
        }
        return out
    }
}
