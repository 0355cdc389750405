// The step vocabulary of scenario files, written once: the loader validates against it, and
// the JSON Schema is generated from it and the interpreter runs the typed actions its decoders build,
// so they cannot drift apart. Adding a verb: docs/scenarios.md, "Adding a verb".
//
// A step is a mapping with an optional `name` and exactly one verb key, e.g.
//   - name: alice creates the group
//     create-group: { by: alice, with: [bob, carol], name: Team }

/// What a field of a step holds.
package enum FieldType: Sendable, Hashable {
    case member  // a member label declared under `members`
    case members  // a list of member labels (a single label is accepted)
    case relay  // a relay name declared under `relays`
    case relays
    case text
    case integer(ClosedRange<Int64>)
    case boolean
    case duration
    case word([String])  // one of a fixed set
    case words([String])  // one or a list of a fixed set
    case stepName  // the name of an earlier step
    case expectations  // member label → expected fields, as in `expect.members` (read at load)
    case tags  // Nostr tags: a list of lists of strings, e.g. [["h", "ab12…"], ["-"]]
    case fields([FieldSpec])  // a nested mapping of these fields
}

/// What a `fault` step applies.
package enum FaultKind: String, Sendable, CaseIterable {
    /// A relay goes down, or comes back up (`relay` required).
    case down, up
    /// Frames selected by relay/member/kind/author/nth are lost, delayed (`for`), duplicated or reordered.
    case drop, delay, duplicate, reorder
    /// Selected EVENTs are refused with `OK false "<prefix>: …"` (`prefix`, default `blocked`).
    case reject
    /// Selected EVENTs are stored but their OK never reaches the publisher.
    case withholdOK = "withhold-ok"
    /// Selected frames wait until a `release` step names this step.
    case hold
    /// A member loses every link (`member` required); `heal` restores them.
    case partition, heal
    /// Events of `kind` by `author` reach `member` with their content altered (id and signature
    /// left stale), as a corrupting relay or path would deliver them.
    case tamper
    /// The group-image blob store keeps every blob uploaded from now on with a bit flipped
    /// (`blob-tamper`), or loses it (`blob-lose`); no selector.
    case blobTamper = "blob-tamper"
    case blobLose = "blob-lose"
    /// The member of the first selected frame stops and starts again after `for` (default 5 s):
    /// a publish reaches its relay and its OK dies with the connection; a frame to the member is
    /// lost with its connection. The scenario must persist (any `restart` does).
    case restart
    /// A hostile relay (`relay` and `member` required) eclipses the member: each of its selected
    /// EVENTs is answered `OK true` but never stored or forwarded (docs/nostr-relay-semantics.md).
    case eclipse
    /// A hostile relay (`relay` and `member` required) serves the member a stale history: every
    /// event the relay receives from now on is withheld from that member, live and stored.
    case stale
}

/// One field of a verb.
package struct FieldSpec: Sendable, Hashable {
    package let name: String
    package let type: FieldType
    package let required: Bool
    package init(_ name: String, _ type: FieldType, required: Bool = false) {
        self.name = name
        self.type = type
        self.required = required
    }
}

/// One step verb: its name, what it does, the shape of its value, what it needs from an engine,
/// and how its checked fields become a typed `StepAction`. The table of these
/// (`StepVocabulary.verbs`) is the only place a verb is defined: the loader, the JSON Schema, the
/// capability check and (through `StepAction`) the interpreter all follow it.
package struct StepVerb: Sendable {
    package enum Shape: Sendable, Hashable {
        /// A mapping of the listed fields.
        case fields([FieldSpec])
        /// One of the listed words (`deliver: all`).
        case word([String])
        /// A list of nested steps (`parallel`).
        case steps
    }

    package let name: String
    package let summary: String
    package let shape: Shape
    package let requirement: StepRequirement
    /// A rule across the verb's fields (`inject` needs `kind` or `copy`), checked after each field.
    let crossCheck: (@Sendable (YAMLNode) throws(ScenarioError) -> Void)?
    /// Builds the step's action from its checked fields, when the file loads.
    let decode: @Sendable (StepFields) throws -> StepAction

    init(
        name: String, summary: String, shape: Shape, requirement: StepRequirement = .world,
        crossCheck: (@Sendable (YAMLNode) throws(ScenarioError) -> Void)? = nil,
        decode: @escaping @Sendable (StepFields) throws -> StepAction
    ) {
        self.name = name
        self.summary = summary
        self.shape = shape
        self.requirement = requirement
        self.crossCheck = crossCheck
        self.decode = decode
    }

    /// A member action: `by` performs it; `forged` (if the verb lists it) skips the sender's own checks.
    static func member(
        _ name: String, _ summary: String, needs requirement: StepRequirement, _ specs: [FieldSpec],
        decode: @escaping @Sendable (StepFields) throws -> MemberAction
    ) -> StepVerb {
        StepVerb(name: name, summary: summary, shape: .fields(specs), requirement: requirement) { f in
            .member(MemberStep(by: try f.string("by"), forged: try f.flag("forged", default: false), action: try decode(f)))
        }
    }
}

/// What a `wait` step's `never` watches for, at every step of the world while it waits.
package enum NeverCondition: String, Sendable, CaseIterable {
    /// A member records an error.
    case errors
    /// A member rejects an event.
    case rejections
}

package enum StepVocabulary {
    static let by = FieldSpec("by", .member, required: true)
    /// The action as a modified client sends it, skipping its own permission checks.
    static let forged = FieldSpec("forged", .boolean)
    static let roles = RoleName.allCases.map(\.rawValue)

    /// Every verb a scenario step may use: member actions, then world steps.
    package static let verbs: [StepVerb] = memberVerbs + worldVerbs + [attackVerb]

    package static func verb(named name: String) -> StepVerb? { verbs.first { $0.name == name } }
}
