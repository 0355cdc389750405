import ErrorCodes

extension CoreError.Code {
    /// A kind-4450 control message that does not parse (`ControlMessage`'s grammar). Refusals by
    /// the permission table carry the check's own code instead (`PermissionCheck.reason`).
    public static let malformedControl = Self("core.malformedControl")
}
