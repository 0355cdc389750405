import Nostr

/// A commit of ours waiting for one accepting OK (MIP-02/03). Meanwhile the group's incoming
/// events are held back: processing one could make the engine drop our staged commit (a
/// competing commit) or replace it (the auto-commit of a leave proposal) before the relays have
/// answered.
struct PendingCommit: Sendable, Codable {
    let chatID: String
    /// Our commit event: its `created_at` and id place it in MIP-03 order.
    let event: Event
    /// What the commit does, for notes and errors.
    let label: String
    /// What to ask for again if a better competing commit replaces this one (nil: nothing, e.g.
    /// the commit of a member's leave proposal, which the winner carries out or not).
    let change: CommitChange?
    var outstanding: Set<String>
    var refusals: [String] = []
    /// Welcome rumors and their invitees, sent only once the commit has settled.
    let welcomes: [WelcomeRumor]
    var timer: TimerToken
    /// How many times the same signed event was published again for want of an OK.
    var republished = 0
    /// Relays that served the event back on our group subscription (so they stored it), sorted.
    var servedBy: [String] = []
    /// Kind-445 events of the group received before the OK, not yet processed.
    var held: [Event] = []

    var eventID: String { event.id.hex }
}

/// A welcome rumor of a commit and the invitee it is for.
struct WelcomeRumor: Sendable, Codable {
    let rumor: UnsignedEvent
    let invitee: PublicKey
}

extension Event {
    /// Oldest first: `created_at`, then the smaller id. MIP-03's order for competing commits ("the
    /// earliest created_at wins, ties go to the smallest id"), and the order held-back or
    /// caught-up group events are handled in.
    static func inMIP03Order(_ a: Event, _ b: Event) -> Bool {
        (a.createdAt, a.id) < (b.createdAt, b.id)
    }
}

/// A commit of ours that was accepted and merged at `epoch`, in its settle window: a better
/// competing commit (MIP-03) that arrives now makes the engine replace it, and its welcomes
/// must then never leave.
struct SettlingCommit: Sendable, Codable {
    let commit: PendingCommit
    let epoch: UInt64
    let timer: TimerToken
    var replacedBy: Event?
    /// Members our commit took out (for the commit of a leave proposal: the leavers).
    var departed: [PublicKey] = []
}
