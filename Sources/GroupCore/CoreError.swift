import ErrorCodes

/// The one error type of GroupCore: why an action was refused or failed.
public typealias CoreError = ModuleError<CoreErrorDomain>

/// Types the codes of `CoreError` (codes of other modules cannot be compared with them).
public enum CoreErrorDomain {}

extension CoreError.Code {
    public static let unknownChat = Self("core.unknownChat")
    public static let chatRemoved = Self("core.chatRemoved")
    public static let notAdmin = Self("core.notAdmin")
    public static let allPeersFailed = Self("core.allPeersFailed")
    public static let partialFailureAborted = Self("core.partialFailureAborted")
    public static let commitNotAcknowledged = Self("core.commitNotAcknowledged")
    /// Our commit lost a MIP-03 race: a competing commit for the same epoch came first.
    public static let commitSuperseded = Self("core.commitSuperseded")
    /// Every inbox relay of an invitee refused its welcome, every time it was sent.
    public static let welcomeUndelivered = Self("core.welcomeUndelivered")
    /// An invitee's welcome cannot fit the path even alone (NIP-44, the relays' event size): the
    /// ratchet tree every welcome carries is too large. The invitee is not added.
    public static let welcomeTooLarge = Self("core.welcomeTooLarge")
    public static let engine = Self("core.engine")
    public static let busy = Self("core.busy")
    /// The action names nobody or nothing it can act on (no peers, only ourselves, a non-member).
    public static let invalidAction = Self("core.invalidAction")
    /// The core has not been started (no `.start` input yet).
    public static let notStarted = Self("core.notStarted")
}
