import ErrorCodes

/// Why an engine refused or failed an operation: a stable `code` to assert on and a free-text `reason`.
///
/// Two errors are equal when their codes are, so tests compare `error.code` (or the error itself) without
/// depending on an engine's wording. Codes are open: a driver may report codes this build does not name.
public typealias EngineError = ModuleError<EngineErrorDomain>

/// Types the codes of `EngineError` (codes of other modules cannot be compared with them).
public enum EngineErrorDomain {}

// Codes defined by docs/driver-protocol.md ("Errors"); the same names are used for ingest rejections.
extension EngineError.Code {
    public static let badRequest = Self("bad_request")
    public static let unknownMethod = Self("unknown_method")
    public static let unknownInstance = Self("unknown_instance")
    public static let instanceExists = Self("instance_exists")
    public static let engineUnavailable = Self("engine_unavailable")
    public static let unknownGroup = Self("unknown_group")
    public static let unknownWelcome = Self("unknown_welcome")
    public static let notAdmin = Self("not_admin")
    public static let adminCannotLeave = Self("admin_cannot_leave")
    public static let cannotRemoveSelf = Self("cannot_remove_self")
    public static let lastAdmin = Self("last_admin")
    public static let invalidKeyPackage = Self("invalid_key_package")
    public static let invalidWelcome = Self("invalid_welcome")
    public static let invalidEncoding = Self("invalid_encoding")
    public static let invalidInput = Self("invalid_input")
    public static let storage = Self("storage")
    /// Group images (MIP-01): the bytes are not an image of the named MIME type; the blob's SHA-256
    /// is not the group data's `image_hash`; the blob does not open with the key and nonce.
    public static let invalidImage = Self("invalid_image")
    public static let imageHashMismatch = Self("image_hash_mismatch")
    public static let imageUndecryptable = Self("image_undecryptable")
    public static let engineError = Self("engine_error")
    public static let `internal` = Self("internal")

    // Ingest rejections reported by `processMessage` as `.rejected`.
    public static let commitFromNonAdmin = Self("commit_from_non_admin")
    public static let undecryptable = Self("undecryptable")
    public static let authorMismatch = Self("author_mismatch")
    public static let wrongEpoch = Self("wrong_epoch")

    // Client-side failures: the driver could not answer.
    public static let driverDied = Self("driver_died")
    public static let timeout = Self("timeout")
    public static let malformedResponse = Self("malformed_response")
    public static let launchFailed = Self("launch_failed")
}
