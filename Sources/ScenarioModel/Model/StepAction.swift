// A scenario step as typed values, decoded when the file loads (StepVocabulary's decoders): the
// interpreter switches on these and never reads YAML. Member labels stay labels (a member's key
// is world state, resolved when the step runs); every other field is already its final type.

/// One step of a scenario.
public struct Step: Sendable, Hashable {
    public let name: String?
    /// The verb as written (`create-group`): for titles and messages only, never dispatched on.
    public let verb: String
    public let action: StepAction
    /// What the step needs from its member's engine (from the verb's table entry).
    public let requirement: StepRequirement
    public let location: SourceLocation

    public init(name: String?, verb: String, action: StepAction, requirement: StepRequirement, location: SourceLocation) {
        self.name = name
        self.verb = verb
        self.action = action
        self.requirement = requirement
        self.location = location
    }

    /// The member whose engine performs the step (a member action or an attack), if any.
    public var performer: String? {
        switch action {
        case .member(let member): member.by
        case .attack(let attack): attack.by
        default: nil
        }
    }

    /// The nested steps of a `parallel` block; empty for any other step.
    public var substeps: [Step] {
        if case .parallel(let steps) = action { steps } else { [] }
    }
}

/// What a step does.
public enum StepAction: Sendable, Hashable {
    /// A member acts through its app core.
    case member(MemberStep)
    /// Run the world until no delivery or timer is left (`deliver: all`).
    case deliver
    /// Advance the virtual clock.
    case advance(ScenarioDuration)
    /// Logically concurrent member actions.
    case parallel([Step])
    case fault(FaultStep)
    case inject(InjectStep)
    /// Release what the named hold step captured.
    case release(hold: String)
    case check(CheckStep)
    case wait(WaitStep)
    /// A hostile member's attack, built by its engine and put into the world (StepVocabulary+Hostile).
    case attack(AttackStep)
}

/// A member action and who performs it.
public struct MemberStep: Sendable, Hashable {
    public let by: String
    /// Sent as a modified client would, skipping its own permission checks.
    public let forged: Bool
    public let action: MemberAction
}

/// A fault on a relay, a member's link, or selected frames.
public struct FaultStep: Sendable, Hashable {
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        case toRelay = "to-relay"
        case toMember = "to-member"
    }

    public let kind: FaultKind
    public let relay: String?
    public let member: String?
    /// The Nostr kind selected (`kind`).
    public let eventKind: UInt16?
    public let author: String?
    public let nth: Int?
    public let prefix: String?
    /// How long a `delay` holds frames (`for`).
    public let duration: ScenarioDuration?
    public let direction: Direction?
}

/// An event put into the world (see InjectFields for the file format).
public struct InjectStep: Sendable, Hashable {
    /// Selects an earlier published event to copy: the latest match, or the `nth` (1-based).
    public struct CopySelector: Sendable, Hashable {
        public let kind: UInt16?
        public let author: String?
        public let nth: Int?
    }

    public let relay: String
    public let to: String?
    public let author: String?
    public let copy: CopySelector?
    public let kind: UInt16?
    public let content: String?
    public let tags: [[String]]?
    public let removeTag: String?
    public let age: ScenarioDuration?
    public let expiresIn: ScenarioDuration?
    public let breakage: InjectBreakage?
}

/// Expectations checked in the middle of a run.
public struct CheckStep: Sendable, Hashable {
    public let expectations: Expectations
    /// A parallel step of renames whose MIP-03 winner every member must show.
    public let raceWinner: String?
}

/// Run the world until a condition holds, failing after a virtual deadline.
public struct WaitStep: Sendable, Hashable {
    public enum Condition: String, Sendable, Hashable, CaseIterable {
        case quiescent, converged
    }

    public let until: Condition
    public let within: ScenarioDuration
    /// Conditions that must not arise at any step while waiting.
    public let never: [NeverCondition]
}
