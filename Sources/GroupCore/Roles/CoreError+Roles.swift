import ErrorCodes

extension CoreError.Code {
    /// A kind-4450 control message (or a link message) that does not parse (`ControlMessage`'s
    /// grammar). Refusals by the permission table carry the check's own code instead
    /// (`PermissionCheck.reason`).
    package static let malformedControl = Self("core.malformedControl")
    /// A group has one link; creating a second is refused.
    package static let duplicateGroupLink = Self("core.duplicateGroupLink")
    /// The group was deleted by an owner: nothing more can be sent.
    package static let chatDeleted = Self("core.chatDeleted")
}
