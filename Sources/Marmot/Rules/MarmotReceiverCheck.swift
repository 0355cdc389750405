// Test switches for the Marmot-level receiver checks: the MUST-reject rules that our engine
// (NativeSwiftEngine) enforces above MLS, from MIP-01…03. Same style as MLS's `ReceiverCheck`: a
// task-local set, empty outside tests, so every check runs in production and tests running in
// parallel never see each other's switches. The generated list in docs/receiver-checks.md
// (Tests/NativeSwiftEngineTests/EngineReceiverCheckTests.swift) names for every check an attack it
// alone stops: no check is dead code.

/// One MUST-reject rule of a Marmot receiver, by the place that enforces it.
package enum MarmotReceiverCheck: String, CaseIterable, Sendable {
    /// A key package's credential names the event's author (MIP-00): nobody can offer another's
    /// leaf under their own name.
    case keyPackageAuthor
    /// A group event is of kind 445 (MIP-03).
    case eventKind
    /// A group event has exactly one `h` tag of 64 hex characters and one `["encoding","base64"]`
    /// tag (MIP-03).
    case eventTags
    /// A group event's created_at lies in the accepted window: 45 days back, 5 minutes ahead.
    case eventTimeWindow
    /// A group event's id and Schnorr signature verify (NIP-01).
    case eventSignature
    /// Only an admin commits anything beyond a pure self-update or SelfRemove (MIP-03).
    case commitAuthorization
    /// A proposal carried by reference keeps its proposer's rights: an admin's commit may not carry
    /// a non-admin's Add, Remove or GroupContextExtensions (MIP-03).
    case proposerRights
    /// A commit's UpdatePath leaf keeps the committer's identity (MIP-03).
    case pathIdentity
    /// An Update proposal's leaf keeps its proposer's identity, also when another member commits
    /// it by reference (MIP-03).
    case updateIdentity
    /// Some admin of the group data is still a member after a commit (MIP-03).
    case adminRemains
    /// A non-admin's Add or Remove of another member is not stored as pending (MIP-03).
    case nonAdminProposal
    /// A Welcome for a group we are an active member of is refused (a replay would roll it back, MIP-02).
    case welcomeIntoHeldGroup
    /// A Welcome for a second group on the `h` of a group we hold is refused (MIP-01 nostr_group_id).
    case welcomeOntoHeldH
    /// A Welcome's cipher_suite is the Marmot suite our key packages and groups use (RFC 9420
    /// §12.4.3.1, MIP-02).
    case welcomeCipherSuite
    /// A welcome rumor carries the tags MIP-02 requires: a `relays` tag of ws(s):// URLs, a non-empty
    /// `e` naming the key-package event, a non-empty `client` when present, one
    /// `["encoding","base64"]`.
    case welcomeRumorTags
    /// A message of an earlier epoch written after its sender left the group is not read.
    case senderRemoved
    /// An application message's inner rumor is authored by the MLS sender (MIP-03).
    case rumorAuthor

    /// Checks switched off in the current task (tests only).
    @TaskLocal package static var disabled: Set<MarmotReceiverCheck> = []

    /// Whether this check runs.
    package var isOn: Bool { !Self.disabled.contains(self) }
}
