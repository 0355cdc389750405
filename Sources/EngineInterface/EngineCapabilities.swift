/// What an engine is and what it can do, so that a scenario needing a missing feature is reported
/// "unsupported" rather than failed.
public struct EngineCapabilities: Hashable, Sendable {
    public let name: String
    public let version: String
    public let capabilities: Set<EngineCapability>

    public init(name: String, version: String, capabilities: Set<EngineCapability>) {
        self.name = name
        self.version = version
        self.capabilities = capabilities
    }

    public func supports(_ capability: EngineCapability) -> Bool { capabilities.contains(capability) }
}

/// One named feature (an open registry: drivers may list names this build does not know).
public struct EngineCapability: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let keyPackage = Self(rawValue: "key_package.30443")
    public static let legacyKeyPackage = Self(rawValue: "key_package.443")
    public static let protectedKeyPackage = Self(rawValue: "key_package.protected")
    public static let createGroup = Self(rawValue: "group.create")
    public static let addMembers = Self(rawValue: "group.add_members")
    public static let removeMembers = Self(rawValue: "group.remove_members")
    public static let leave = Self(rawValue: "group.leave")
    public static let selfDemote = Self(rawValue: "group.self_demote")
    public static let selfUpdate = Self(rawValue: "group.self_update")
    public static let updateGroupData = Self(rawValue: "group.update_data")
    public static let pendingCommit = Self(rawValue: "group.pending_commit")
    public static let applicationMessages = Self(rawValue: "message.application")
    public static let processWelcome = Self(rawValue: "welcome.process")
    public static let declineWelcome = Self(rawValue: "welcome.decline")
    public static let epochWindow = Self(rawValue: "config.epoch_window")
    public static let storageEncryptionKey = Self(rawValue: "storage.encryption_key")
    /// Prepares and decrypts MIP-01 group images (`prepare_group_image`, `decrypt_group_image`) and
    /// sets one with `update_group_data`.
    public static let groupImage = Self(rawValue: "group.image")
    /// Disbands a group (`disband_group`; current profile: lifecycle component 0x800c,
    /// group-lifecycle-v1.md). A legacy engine has no lifecycle and does not declare it.
    public static let disbandGroup = Self(rawValue: "group.disband")
    /// Answers `exact_state` (conformance digests of a group's MLS state).
    public static let exactState = Self(rawValue: "group.exact_state")
}
