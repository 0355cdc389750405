import ErrorCodes

/// The one error type of GroupCore: why an action was refused or failed.
package typealias CoreError = ModuleError<CoreErrorDomain>

/// Types the codes of `CoreError` (codes of other modules cannot be compared with them).
package enum CoreErrorDomain {}

extension CoreError.Code {
    package static let unknownChat = Self("core.unknownChat")
    package static let chatRemoved = Self("core.chatRemoved")
    package static let notAdmin = Self("core.notAdmin")
    package static let allPeersFailed = Self("core.allPeersFailed")
    package static let partialFailureAborted = Self("core.partialFailureAborted")
    /// `decide` names no pending decision (never made, or already settled).
    package static let unknownDecision = Self("core.unknownDecision")
    package static let commitNotAcknowledged = Self("core.commitNotAcknowledged")
    /// Our commit lost a MIP-03 race: a competing commit for the same epoch came first.
    package static let commitSuperseded = Self("core.commitSuperseded")
    /// A message of ours was sent in an epoch a competing commit then superseded, and not sent again.
    package static let messageSuperseded = Self("core.messageSuperseded")
    /// Our commit lost a MIP-03 race (or waited for an epoch to settle) and what it was for is not
    /// asked for again: we are no longer an admin of the group in the winning epoch.
    package static let raceLostNotRedone = Self("core.raceLostNotRedone")
    /// Every inbox relay of an invitee refused its welcome, every time it was sent.
    package static let welcomeUndelivered = Self("core.welcomeUndelivered")
    /// An invitee's welcome cannot fit the path even alone (NIP-44, the relays' event size): the
    /// ratchet tree every welcome carries is too large. The invitee is not added.
    package static let welcomeTooLarge = Self("core.welcomeTooLarge")
    /// A contact speaks the other Marmot profile (issue 28): its key package, or a Welcome from it,
    /// is legacy (MIP-00…03, MDK 0.8.0) while we speak the current profile, or the reverse. The
    /// app tells its user which side must upgrade; the contact is not added, nothing is half-joined.
    package static let profileMismatch = Self("core.profileMismatch")
    /// A chat message, control message or leave proposal no relay answered (no OK), however
    /// often it was sent, or every relay kept refusing.
    package static let publishUnacknowledged = Self("core.publishUnacknowledged")
    package static let engine = Self("core.engine")
    package static let busy = Self("core.busy")
    /// The action names nobody or nothing it can act on (no peers, only ourselves, a non-member).
    package static let invalidAction = Self("core.invalidAction")
    /// The core has not been started (no `.start` input yet).
    package static let notStarted = Self("core.notStarted")
    /// A persisted state (docs/core-state-format.md) cannot be read: not a snapshot, another
    /// version, another member's, or a value that fails its check.
    package static let stateUnreadable = Self("core.stateUnreadable")
    /// `accept-invitation` or `decline-invitation` names no invitation waiting for an answer.
    package static let unknownInvitation = Self("core.unknownInvitation")
    /// A group link that cannot be read (not our link grammar, a bad npub or token, a bad parameter).
    package static let invalidLink = Self("core.invalidLink")
    /// A group link past the `expires` it states.
    package static let linkExpired = Self("core.linkExpired")
    /// A group link its admin says no longer stands: the link deleted, or its group deleted.
    package static let linkDeleted = Self("core.linkDeleted")
    /// At a restart the engine no longer holds a usable record of one of our groups (missing or
    /// corrupt material, restart-matrix boundary 8): that group is Unrecoverable, the others run.
    package static let groupUnrecoverable = Self("core.groupUnrecoverable")
}
