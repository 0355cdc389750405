/// What an engine is and what it can do, so that a scenario needing a missing feature is reported
/// "unsupported" rather than failed.
package struct EngineCapabilities: Hashable, Sendable {
    package let name: String
    package let version: String
    package let capabilities: Set<EngineCapability>

    package init(name: String, version: String, capabilities: Set<EngineCapability>) {
        self.name = name
        self.version = version
        self.capabilities = capabilities
    }

    package func supports(_ capability: EngineCapability) -> Bool { capabilities.contains(capability) }
}

/// One named feature (an open registry: drivers may list names this build does not know).
package struct EngineCapability: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package init(stringLiteral value: String) { rawValue = value }

    package static let keyPackage = Self(rawValue: "key_package.30443")
    package static let legacyKeyPackage = Self(rawValue: "key_package.443")
    package static let protectedKeyPackage = Self(rawValue: "key_package.protected")
    package static let createGroup = Self(rawValue: "group.create")
    package static let addMembers = Self(rawValue: "group.add_members")
    package static let removeMembers = Self(rawValue: "group.remove_members")
    package static let leave = Self(rawValue: "group.leave")
    package static let selfDemote = Self(rawValue: "group.self_demote")
    package static let selfUpdate = Self(rawValue: "group.self_update")
    package static let updateGroupData = Self(rawValue: "group.update_data")
    package static let pendingCommit = Self(rawValue: "group.pending_commit")
    package static let applicationMessages = Self(rawValue: "message.application")
    package static let processWelcome = Self(rawValue: "welcome.process")
    package static let declineWelcome = Self(rawValue: "welcome.decline")
    package static let epochWindow = Self(rawValue: "config.epoch_window")
    package static let storageEncryptionKey = Self(rawValue: "storage.encryption_key")
    /// Answers `exact_state` (conformance digests of a group's MLS state).
    package static let exactState = Self(rawValue: "group.exact_state")
}
