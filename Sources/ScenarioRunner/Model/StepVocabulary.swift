// The step vocabulary of scenario files, written once: the loader validates against it, and
// docs and the JSON Schema are meant to be generated from it, so they cannot drift apart.
//
// A step is a mapping with an optional `name` and exactly one verb key, e.g.
//   - name: alice creates the group
//     create-group: { by: alice, with: [bob, carol], name: Team }

import GroupCore

/// What a field of a step holds.
public enum FieldType: Sendable, Hashable {
    case member            // a member label declared under `members`
    case members           // a list of member labels (a single label is accepted)
    case relay             // a relay name declared under `relays`
    case relays
    case text
    case integer(ClosedRange<Int64>)
    case boolean
    case duration
    case word([String])    // one of a fixed set
    case words([String])   // one or a list of a fixed set
    case stepName          // the name of an earlier step
    case expectations      // an `expect`-shaped mapping, checked when the step runs
    case tags              // Nostr tags: a list of lists of strings, e.g. [["h", "ab12…"], ["-"]]
    case fields([FieldSpec])  // a nested mapping of these fields
}

/// What a `fault` step applies.
public enum FaultKind: String, Sendable, CaseIterable {
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
}

/// One field of a verb.
public struct FieldSpec: Sendable, Hashable {
    public let name: String
    public let type: FieldType
    public let required: Bool
    public init(_ name: String, _ type: FieldType, required: Bool = false) {
        self.name = name
        self.type = type
        self.required = required
    }
}

/// One step verb and the shape of its value.
public struct StepVerb: Sendable, Hashable {
    public enum Shape: Sendable, Hashable {
        /// A mapping of the listed fields.
        case fields([FieldSpec])
        /// One of the listed words (`deliver: all`).
        case word([String])
        /// A list of nested steps (`parallel`).
        case steps
    }

    public let name: String
    public let summary: String
    public let shape: Shape
}

/// What a `wait` step's `never` watches for, at every step of the world while it waits.
public enum NeverCondition: String, Sendable, CaseIterable {
    /// A member records an error.
    case errors
    /// A member rejects an event.
    case rejections
}

public enum StepVocabulary {
    static let by = FieldSpec("by", .member, required: true)
    /// The action as a modified client sends it, skipping its own permission checks.
    static let forged = FieldSpec("forged", .boolean)

    /// Every verb a scenario step may use.
    public static let verbs: [StepVerb] = [
        // Member actions (GroupCore actions).
        StepVerb(name: "create-group", summary: "a member creates a group chat with peers", shape: .fields([
            by, FieldSpec("with", .members, required: true), FieldSpec("name", .text), FieldSpec("description", .text),
            FieldSpec("on-partial-failure", .word(["continue", "abort"])), FieldSpec("admins", .members),
        ])),
        StepVerb(name: "create-chat", summary: "a member opens a 1:1 chat (a two-member group)", shape: .fields([
            by, FieldSpec("with", .member, required: true),
        ])),
        StepVerb(name: "add-members", summary: "an admin adds members", shape: .fields([
            by, FieldSpec("members", .members, required: true), FieldSpec("group", .text),
        ])),
        StepVerb(name: "remove-members", summary: "an admin removes members", shape: .fields([
            by, FieldSpec("members", .members, required: true), FieldSpec("group", .text), forged,
            FieldSpec("with-messages", .boolean),
        ])),
        StepVerb(name: "leave", summary: "a member leaves a group (an admin steps down first)", shape: .fields([
            by, FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "rename", summary: "an admin renames a group", shape: .fields([
            by, FieldSpec("to", .text, required: true), FieldSpec("group", .text),
        ])),
        StepVerb(name: "send", summary: "a member sends a message", shape: .fields([
            by, FieldSpec("text", .text, required: true), FieldSpec("group", .text), forged,
        ])),
        // The role hierarchy (GroupCore/Roles/PermissionTable.swift).
        StepVerb(name: "set-role", summary: "a member gives another member a role", shape: .fields([
            by, FieldSpec("member", .member, required: true), FieldSpec("role", .word(Role.allCases.map(\.rawValue)), required: true),
            FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "delete-message", summary: "a member deletes a message (named by its text) for everyone", shape: .fields([
            by, FieldSpec("message", .text, required: true), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "block", summary: "a member hides another member's messages for everyone", shape: .fields([
            by, FieldSpec("member", .member, required: true), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "unblock", summary: "a member lifts a block", shape: .fields([
            by, FieldSpec("member", .member, required: true), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "create-link", summary: "an admin creates the group link (later steps name this step)", shape: .fields([
            by, FieldSpec("role", .word(Role.allCases.map(\.rawValue))), FieldSpec("approval", .boolean), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "change-link", summary: "an admin changes the role the group link gives", shape: .fields([
            by, FieldSpec("role", .word(Role.allCases.map(\.rawValue)), required: true), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "delete-link", summary: "an admin deletes the group link", shape: .fields([by, FieldSpec("group", .text), forged])),
        StepVerb(name: "join-by-link", summary: "a member asks to join by the link an earlier create-link step made", shape: .fields([
            by, FieldSpec("link", .stepName, required: true),
        ])),
        StepVerb(name: "accept-join", summary: "an admin accepts a pending join request, with a role", shape: .fields([
            by, FieldSpec("member", .member, required: true), FieldSpec("role", .word(Role.allCases.map(\.rawValue))), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "reject-join", summary: "an admin rejects a pending join request", shape: .fields([
            by, FieldSpec("member", .member, required: true), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "delete-group", summary: "an owner deletes the group for everyone", shape: .fields([
            by, FieldSpec("keep-history", .boolean), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "set-preferences", summary: "an owner sets the group preferences (unlisted ones keep their defaults)", shape: .fields([
            by, FieldSpec("reactions", .boolean), FieldSpec("full-deletion", .boolean), FieldSpec("disappear-after", .duration),
            FieldSpec("history-for-new-members", .boolean), FieldSpec("welcome", .text), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "react", summary: "a member reacts to a message (named by its text)", shape: .fields([
            by, FieldSpec("message", .text, required: true), FieldSpec("emoji", .text), FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "publish-roles", summary: "an admin re-publishes the role table (forged: a member claims ownership)", shape: .fields([
            by, FieldSpec("group", .text), forged,
        ])),
        StepVerb(name: "mute", summary: "a member mutes a chat (no notification intents)", shape: .fields([
            by, FieldSpec("group", .text),
        ])),
        StepVerb(name: "unmute", summary: "a member unmutes a chat", shape: .fields([by, FieldSpec("group", .text)])),
        StepVerb(name: "create-channel", summary: "an owner creates a channel served by chat relays", shape: .fields([
            by, FieldSpec("relays", .members, required: true), FieldSpec("name", .text, required: true),
            FieldSpec("description", .text), FieldSpec("welcome", .text), FieldSpec("owners", .members),
        ])),
        StepVerb(name: "retry-channel", summary: "the owner asks a channel's failed relays again", shape: .fields([
            by, FieldSpec("channel", .text),
        ])),
        StepVerb(name: "join-channel", summary: "a subscriber joins by the link of a member's channel", shape: .fields([
            by, FieldSpec("channel", .text), FieldSpec("from", .member, required: true),
        ])),
        StepVerb(name: "retry-join", summary: "a subscriber asks the relays that failed it again", shape: .fields([
            by, FieldSpec("channel", .text),
        ])),
        StepVerb(name: "broadcast", summary: "a member posts to a channel (owners only)", shape: .fields([
            by, FieldSpec("text", .text, required: true), FieldSpec("channel", .text),
        ])),
        // The world.
        StepVerb(name: "deliver", summary: "run the world until no delivery or timer is left", shape: .word(["all"])),
        StepVerb(name: "advance", summary: "advance the virtual clock", shape: .fields([
            FieldSpec("by", .duration, required: true),
        ])),
        StepVerb(name: "fault", summary: "apply a fault to a relay, a member's link, or selected events", shape: .fields([
            FieldSpec("relay", .relay), FieldSpec("member", .member),
            FieldSpec("apply", .word(FaultKind.allCases.map(\.rawValue)), required: true),
            FieldSpec("kind", .integer(0...65535)), FieldSpec("author", .member), FieldSpec("nth", .integer(1...1_000_000)),
            FieldSpec("prefix", .text), FieldSpec("for", .duration),
            // Which way selected EVENT frames travel: members' publications (the default), or the
            // relay's deliveries to members (with `member`: what that member receives).
            FieldSpec("direction", .word(["to-relay", "to-member"])),
        ])),
        StepVerb(name: "release", summary: "release what a named hold step captured", shape: .fields([
            FieldSpec("hold", .stepName, required: true),
        ])),
        StepVerb(name: "parallel", summary: "logically concurrent steps whose interleaving the seed decides", shape: .steps),
        StepVerb(name: "inject", summary: "publish a crafted, copied or deliberately broken event, or hand it to one member", shape: .fields(InjectFields.all)),
        StepVerb(name: "check", summary: "check expectations now, in the format of the expect section", shape: .fields([
            FieldSpec("converged", .boolean), FieldSpec("members", .expectations),
            // The named parallel block's renames raced: every member shows the MIP-03 winner's name.
            FieldSpec("race-winner", .stepName),
        ])),
        StepVerb(name: "wait", summary: "run the world until a condition holds, failing after a virtual deadline", shape: .fields([
            FieldSpec("until", .word(["quiescent", "converged"]), required: true),
            FieldSpec("within", .duration, required: true),
            // Conditions that must not arise at any step while waiting (a `never` oracle).
            FieldSpec("never", .words(NeverCondition.allCases.map(\.rawValue))),
        ])),
    ]

    public static func verb(named name: String) -> StepVerb? { verbs.first { $0.name == name } }
}
