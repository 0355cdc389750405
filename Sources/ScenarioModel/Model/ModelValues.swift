// The model's own small value types for words a scenario file uses. The model knows nothing of
// GroupCore, the engines or the simulated world (it is the file format, nothing more); the runner
// maps each of these to its counterpart, and ScenarioRunnerTests checks the two sides agree
// (ModelMappingTests), so a role or capability added on one side cannot be forgotten on the other.

/// A member role of the group's role table (GroupCore's `Role`).
package enum RoleName: String, Sendable, Hashable, CaseIterable {
    case owner, admin, moderator, member, relay, observer
}

/// How a member's app core merges its own accepted commits (GroupCore's `OwnCommitMerge`).
package enum OwnCommitMergeName: String, Sendable, Hashable, CaseIterable {
    case asReceived = "as-received"
    case plain
}

/// How the channel from a member's core to its UI host misbehaves (Simulation's
/// `UpdatePerturbation`): a late duplicate, an update overtaken by the next, or one lost.
package enum UpdateDeliveryName: String, Sendable, Hashable, CaseIterable {
    case duplicate, reorder, drop
}

/// A Marmot profile (EngineInterface's `MarmotProfile`, same raw values): the dialect a member's
/// engine speaks (`profile:` on a member) and the profiles a scenario applies to (`profiles:`).
package enum ProfileName: String, Sendable, Hashable, CaseIterable {
    /// MIP-00…03 as MDK 0.8.0 implements them.
    case legacy
    /// The adopted Marmot specification.
    case current
}

/// What `create-group` and `add-members` do when some peers cannot be invited (`on-partial-failure`).
package enum PartialFailureChoice: String, Sendable, Hashable, CaseIterable {
    /// Create the group with the others (the default).
    case proceed = "continue"
    /// Create nothing.
    case abort
    /// Let the user decide: the action waits as a pending decision (`decide` answers it).
    case ask
}

/// A `decide` step's answer to a member's pending decision.
package enum DecisionAnswer: String, Sendable, Hashable, CaseIterable {
    /// Look the failed invitees up again.
    case retry
    /// Go on without them.
    case proceed = "continue"
    /// Drop the action.
    case cancel
}

/// The engine capability a member action needs (EngineInterface's `EngineCapability`, same raw value).
package enum EngineFeature: String, Sendable, Hashable, CaseIterable {
    case createGroup = "group.create"
    case addMembers = "group.add_members"
    case removeMembers = "group.remove_members"
    case leave = "group.leave"
    case updateGroupData = "group.update_data"
    /// Prepares, commits and opens MIP-01 group images.
    case groupImage = "group.image"
    case selfUpdate = "group.self_update"
    /// Disbands a group (current profile: lifecycle component 0x800c).
    case disbandGroup = "group.disband"
    case applicationMessages = "message.application"
    /// Discards a processed welcome without joining (an invitation declined).
    case declineWelcome = "welcome.decline"
    /// Builds a hostile member's attacks (the `attack` verb).
    case hostile = "conformance.hostile"
}

/// What a step needs to run.
package enum StepRequirement: Sendable, Hashable {
    /// A world step (`deliver`, `fault`, …): no member's engine is involved.
    case world
    /// A member action its app core carries out alone (`mute`, `join-channel`, …).
    case local
    /// A member action that needs the member's engine to offer this capability.
    case engine(EngineFeature)
}

extension Scenario {
    /// The relays a world runs when the scenario declares none (Simulation's `standardRelays`;
    /// ModelMappingTests checks they agree). Steps may name them.
    package static let standardRelayNames = ["discovery", "keypackages", "inbox", "group"]
}

/// The engines built into marmot-conform, by the name a member pins (`engine:`), `--engine` selects
/// and reports, ledger entries and pinned fingerprints use. This is the one list of built-in engine
/// names: `mixed` alternates over it, and the runner's `EngineSelection` is made from it (an engine
/// of an engines file or a `driver:` command is a name the run registers, never a built-in).
package enum EngineName: String, Sendable, Hashable, CaseIterable {
    /// Our own engine, in process (it also serves a scenario's hostile members).
    case swift
    /// MDK behind its driver (drivers/mdk), or the engines file's `mdk` entry.
    case mdk

    /// The selection that alternates members over the built-in engines: a word of the command line,
    /// not an engine, so no engines file may define it.
    package static let mixedSelection = "mixed"
}

/// A relay's role in a scenario's `relays` section (a member's relays per role; the first role is
/// the world relay's `RelayRole`). A relay without roles serves every kind.
package enum RelayRoleName: String, Sendable, Hashable, CaseIterable {
    /// Where members publish and look up profiles and relay lists (kinds 0, 10002, 10050, 10051).
    case discovery
    case keyPackages = "key-packages"
    case inbox, group
}

/// A relay's rules and state in a scenario's `relays` section (InMemoryRelay's `RelayPolicy`).
package enum RelayPolicyName: String, Sendable, Hashable, CaseIterable {
    /// Refuses NIP-70 protected events (`["-"]`).
    case rejectProtected = "reject-protected"
    /// Starts down (a state: a `fault` step brings it up).
    case down
    /// Serves gift wraps only to an authenticated recipient (NIP-42).
    case requireAuth = "require-auth"
    /// Keeps serving events past their NIP-40 expiration.
    case keepsExpired = "keeps-expired"
    /// Accepts connections and frames but never answers.
    case hung
}

/// How a chat relay forwards channel broadcasts (GroupCore's `ChatRelayConduct`, same raw value).
package enum ChatRelayConductName: String, Sendable, Hashable, CaseIterable {
    case honest, alters, forges
}

/// How a member answers invitations (member field `invitations`): joined as they arrive, or
/// held for `accept-invitation` / `decline-invitation` (seed 001 §2).
package enum InvitationAnswerName: String, Sendable, Hashable, CaseIterable {
    case automatic, ask
}
