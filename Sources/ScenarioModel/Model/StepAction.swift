// A scenario step as typed values, decoded when the file loads (StepVocabulary's decoders): the
// interpreter switches on these and never reads YAML. Member labels stay labels (a member's key
// is world state, resolved when the step runs); every other field is already its final type.

/// One step of a scenario.
package struct Step: Sendable, Hashable {
    package let name: String?
    /// The verb as written (`create-group`): for titles and messages only, never dispatched on.
    package let verb: String
    package let action: StepAction
    /// What the step needs from its member's engine (from the verb's table entry).
    package let requirement: StepRequirement
    package let location: SourceLocation

    package init(name: String?, verb: String, action: StepAction, requirement: StepRequirement, location: SourceLocation) {
        self.name = name
        self.verb = verb
        self.action = action
        self.requirement = requirement
        self.location = location
    }

    /// The member whose engine performs the step (a member action or an attack), if any.
    package var performer: String? {
        switch action {
        case .member(let member): member.by
        case .attack(let attack): attack.by
        case .crash(let members, _, _, _): members.count == 1 ? members[0] : nil
        default: nil
        }
    }

    /// The nested steps of a `parallel` block; empty for any other step.
    package var substeps: [Step] {
        if case .parallel(let steps) = action { steps } else { [] }
    }
}

/// What a step does.
package enum StepAction: Sendable, Hashable {
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
    /// A member's app stops and starts again `down` later from what it persisted.
    case restart(member: String, down: ScenarioDuration)
    /// Arms a crash point on a member: it dies the next time it reaches the point, losing what was
    /// not durable, and starts again `down` later (docs/restart-matrix.md); with `damage`, one of
    /// its groups' durable records is missing or corrupt when it starts again (boundary 8). Several
    /// members: the point is armed on each and the first to reach it dies, the others are disarmed
    /// at that instant (a member known only at run time: the one a seeded race makes switch branch).
    case crash(members: [String], at: CrashPointName, down: ScenarioDuration, damage: CrashDamage?)
    case check(CheckStep)
    case wait(WaitStep)
    /// A hostile member's attack, built by its engine and put into the world (StepVocabulary+Hostile).
    case attack(AttackStep)
}

/// A member action and who performs it.
package struct MemberStep: Sendable, Hashable {
    package let by: String
    /// Sent as a modified client would, skipping its own permission checks.
    package let forged: Bool
    package let action: MemberAction
}

/// A fault on a relay, a member's link, or selected frames.
package struct FaultStep: Sendable, Hashable {
    package enum Direction: String, Sendable, Hashable, CaseIterable {
        case toRelay = "to-relay"
        case toMember = "to-member"
    }

    package let kind: FaultKind
    package let relay: String?
    package let member: String?
    /// The Nostr kind selected (`kind`).
    package let eventKind: UInt16?
    package let author: String?
    package let nth: Int?
    package let prefix: String?
    /// How long a `delay` holds frames (`for`).
    package let duration: ScenarioDuration?
    package let direction: Direction?
}

/// An event put into the world (see InjectFields for the file format).
package struct InjectStep: Sendable, Hashable {
    /// Selects an earlier published event to copy: the latest match, or the `nth` (1-based).
    package struct CopySelector: Sendable, Hashable {
        package let kind: UInt16?
        package let author: String?
        package let nth: Int?
    }

    package let relay: String
    package let to: String?
    package let author: String?
    package let copy: CopySelector?
    package let kind: UInt16?
    package let content: String?
    package let tags: [[String]]?
    package let removeTag: String?
    package let age: ScenarioDuration?
    package let expiresIn: ScenarioDuration?
    package let breakage: InjectBreakage?
}

/// Expectations checked in the middle of a run.
package struct CheckStep: Sendable, Hashable {
    package let expectations: Expectations
    /// A parallel step of renames whose MIP-03 winner every member must show.
    package let raceWinner: String?
}

/// Run the world until a condition holds, failing after a virtual deadline.
package struct WaitStep: Sendable, Hashable {
    package enum Condition: String, Sendable, Hashable, CaseIterable {
        case quiescent, converged
    }

    package let until: Condition
    package let within: ScenarioDuration
    /// Conditions that must not arise at any step while waiting.
    package let never: [NeverCondition]
}

/// The crash points a scenario can name (EngineInterface's `CrashPoint`, whose raw values these
/// are; a test keeps the two lists equal). The three inside the engine need its
/// `conformance.crash_points` capability.
package enum CrashPointName: String, Sendable, Hashable, CaseIterable {
    case preparedNotPublished = "prepared-not-published"
    case acknowledgementUncertain = "acknowledgement-uncertain"
    case confirmedNotMerged = "confirmed-not-merged"
    case receivedNotApplied = "received-not-applied"
    case engineUnsaved = "engine-unsaved"
    case engineSavedUnreported = "engine-saved-unreported"
    case appliedNotDerived = "applied-not-derived"
    case settleTimerFired = "settle-timer-fired"
    case heldBatchPartial = "held-batch-partial"
    case branchSwitchUnsaved = "branch-switch-unsaved"
    case leavingNotPublished = "leaving-not-published"

    /// Whether the point lies inside the engine.
    package var insideEngine: Bool { self == .engineUnsaved || self == .engineSavedUnreported || self == .branchSwitchUnsaved }
}

/// What a crash does to the member's store while it is down (restart-matrix boundary 8): one
/// group's durable record is `corrupt` (there, and no longer decoding) or `missing` (gone). Needs
/// the member's engine to declare `conformance.store_damage`.
package struct CrashDamage: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case corrupt
        case missing
    }

    package let kind: Kind
    /// The group by name, as the member shows it; nil: its only active group.
    package let group: String?

    package init(kind: Kind, group: String?) {
        self.kind = kind
        self.group = group
    }
}
