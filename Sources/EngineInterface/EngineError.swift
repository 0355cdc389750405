import ErrorCodes

/// Why an engine refused or failed an operation: a stable `code` to assert on and a free-text `reason`.
///
/// Two errors are equal when their codes are, so tests compare `error.code` (or the error itself) without
/// depending on an engine's wording. Codes are open: a driver may report codes this build does not name.
package typealias EngineError = ModuleError<EngineErrorDomain>

/// Types the codes of `EngineError` (codes of other modules cannot be compared with them).
package enum EngineErrorDomain {}

// Codes defined by docs/driver-protocol.md ("Errors"); the same names are used for ingest rejections.
extension EngineError.Code {
    package static let badRequest = Self("bad_request")
    package static let unknownMethod = Self("unknown_method")
    package static let unknownInstance = Self("unknown_instance")
    package static let instanceExists = Self("instance_exists")
    package static let engineUnavailable = Self("engine_unavailable")
    package static let unknownGroup = Self("unknown_group")
    package static let unknownWelcome = Self("unknown_welcome")
    package static let notAdmin = Self("not_admin")
    package static let adminCannotLeave = Self("admin_cannot_leave")
    package static let cannotRemoveSelf = Self("cannot_remove_self")
    package static let lastAdmin = Self("last_admin")
    package static let invalidKeyPackage = Self("invalid_key_package")
    package static let invalidWelcome = Self("invalid_welcome")
    package static let invalidEncoding = Self("invalid_encoding")
    package static let invalidInput = Self("invalid_input")
    package static let storage = Self("storage")
    package static let engineError = Self("engine_error")
    package static let `internal` = Self("internal")

    // Ingest rejections reported by `processMessage` as `.rejected`.
    package static let commitFromNonAdmin = Self("commit_from_non_admin")
    package static let undecryptable = Self("undecryptable")
    package static let authorMismatch = Self("author_mismatch")
    package static let wrongEpoch = Self("wrong_epoch")

    // Client-side failures: the driver could not answer.
    package static let driverDied = Self("driver_died")
    package static let timeout = Self("timeout")
    package static let malformedResponse = Self("malformed_response")
    package static let launchFailed = Self("launch_failed")
}
