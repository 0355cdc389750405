import ErrorCodes
import MLS

extension MarmotError.Code {
    /// A component at a location its document forbids (e.g. an identity proof in a GroupContext).
    package static let componentMisplaced = Self("component.misplaced")
    /// A group or key package of the legacy profile (or a mix of both) met by current-profile code:
    /// the 0xF2EE group data, a legacy key-package event. The engine reports it as `profile_mismatch`.
    package static let profileMismatch = Self("marmot.profileMismatch")
    /// A current-profile GroupContext whose MLS required_capabilities does not require what every
    /// current group must (the app_data_update proposal).
    package static let requiredCapabilityMissing = Self("group.requiredCapabilityMissing")
}

/// One GroupContext component, typed when Marmot knows its id; unknown ids keep their bytes, which
/// are carried forward untouched (app-components/README.md, "Unknown Data").
package enum GroupComponent: Hashable, Sendable {
    case profile(GroupProfile)
    case blossomImage(GroupBlossomImage)
    case admins(AdminList)
    case routing(NostrRouting)
    case retention(MessageRetention)
    case agentStream(AgentTextStreamPolicy)
    case avatar(GroupAvatarURL)
    case mediaPolicy(EncryptedMediaPolicy)
    case lifecycle(GroupLifecycle)
    /// The `app_components` entry: the ids the group requires.
    case required(AppComponents)
    case unknown(ComponentData)

    /// Decodes and validates the data of `id` as GroupContext state (also the rule for the
    /// `update` bytes of an AppDataUpdate: every v1 update is a full replacement state).
    /// - Throws: `.componentInvalid`, `.componentListInvalid`, or `.componentMisplaced` for a
    ///   leaf-only or key-package-only component.
    package init(id: AppComponentID, data: [UInt8]) throws(MarmotError) {
        switch id {
        case .appComponents: self = .required(try AppComponents(marmotBytes: data))
        case .groupProfile: self = .profile(try GroupProfile(bytes: data))
        case .groupBlossomImage: self = .blossomImage(try GroupBlossomImage(bytes: data))
        case .adminPolicy: self = .admins(try AdminList(bytes: data))
        case .nostrRouting: self = .routing(try NostrRouting(bytes: data))
        case .messageRetention: self = .retention(try MessageRetention(bytes: data))
        case .agentTextStream: self = .agentStream(try AgentTextStreamPolicy(bytes: data))
        case .groupAvatarURL: self = .avatar(try GroupAvatarURL(bytes: data))
        case .encryptedMediaV2: self = .mediaPolicy(try EncryptedMediaPolicy(bytes: data))
        case .groupLifecycle: self = .lifecycle(try GroupLifecycle(bytes: data))
        case .accountIdentityProof, .lastResortKeyPackage:
            throw MarmotError(.componentMisplaced, "\(id) is not valid in a GroupContext")
        default: self = .unknown(ComponentData(componentID: id.rawValue, data: data))
        }
    }

    package var id: AppComponentID {
        switch self {
        case .profile: GroupProfile.id
        case .blossomImage: GroupBlossomImage.id
        case .admins: AdminList.id
        case .routing: NostrRouting.id
        case .retention: MessageRetention.id
        case .agentStream: AgentTextStreamPolicy.id
        case .avatar: GroupAvatarURL.id
        case .mediaPolicy: EncryptedMediaPolicy.id
        case .lifecycle: GroupLifecycle.id
        case .required: .appComponents
        case .unknown(let entry): AppComponentID(entry.componentID)
        }
    }

    package func encoded() -> [UInt8] {
        switch self {
        case .profile(let value): value.encoded()
        case .blossomImage(let value): value.encoded()
        case .admins(let value): value.encoded()
        case .routing(let value): value.encoded()
        case .retention(let value): value.encoded()
        case .agentStream(let value): value.encoded()
        case .avatar(let value): value.encoded()
        case .mediaPolicy(let value): value.encoded()
        case .lifecycle(let value): value.encoded()
        case .required(let value): value.encoded()
        case .unknown(let entry): entry.data
        }
    }
}

/// The Marmot state of a current-profile GroupContext: its `app_data_dictionary`, every entry
/// decoded and validated, in wire order.
package struct GroupComponents: Hashable, Sendable {
    package private(set) var components: [GroupComponent]

    /// - Throws: the first entry's decoding error.
    package init(dictionary: AppDataDictionary) throws(MarmotError) {
        var components: [GroupComponent] = []
        for entry in dictionary.entries { components.append(try GroupComponent(id: AppComponentID(entry.componentID), data: entry.data)) }
        self.components = components
    }

    /// Reads the GroupContext extensions of a current-profile group and checks the profile's
    /// group-level rules (``requireCurrentProfile(extensions:)``).
    /// - Throws: `.profileMismatch`, `.componentMissing`, `.dictionaryInvalid`, a component's error.
    package init(extensions: [Extension]) throws(MarmotError) {
        guard let dictionary = try AppDataDictionary.marmot(in: extensions) else {
            throw MarmotError(
                extensions.data(ofType: CurrentProfileCodePoints.legacyGroupData) == nil ? .componentMissing : .profileMismatch,
                "the GroupContext has no app_data_dictionary")
        }
        try self.init(dictionary: dictionary)
        try requireCurrentProfile(extensions: extensions)
    }

    /// The re-encoded dictionary: equal, byte for byte, to the one decoded (canonical decoding
    /// admits one encoding per value).
    package var dictionary: AppDataDictionary {
        // Entries are decoded ascending and inserted at their place, so `set` only appends in order.
        var dictionary = AppDataDictionary()
        for component in components { dictionary.set(component.id.rawValue, to: component.encoded()) }
        return dictionary
    }

    package var required: AppComponents {
        for case .required(let list) in components { return list }
        return AppComponents([])
    }
    package var profile: GroupProfile? { first { if case .profile(let v) = $0 { v } else { nil } } }
    package var admins: AdminList? { first { if case .admins(let v) = $0 { v } else { nil } } }
    package var routing: NostrRouting? { first { if case .routing(let v) = $0 { v } else { nil } } }
    package var blossomImage: GroupBlossomImage? { first { if case .blossomImage(let v) = $0 { v } else { nil } } }
    package var lifecycle: GroupLifecycle? { first { if case .lifecycle(let v) = $0 { v } else { nil } } }
    package var retention: MessageRetention? { first { if case .retention(let v) = $0 { v } else { nil } } }
    package var agentStream: AgentTextStreamPolicy? { first { if case .agentStream(let v) = $0 { v } else { nil } } }

    private func first<T>(_ pick: (GroupComponent) -> T?) -> T? {
        for component in components { if let value = pick(component) { return value } }
        return nil
    }

    /// The group-level rules of the current profile that the GroupContext alone decides:
    /// - no legacy 0xF2EE group data beside the dictionary (a mixed group);
    /// - `app_components` requires 0x8003 (admin policy) and 0x8009 (identity proof in every leaf);
    /// - every required GroupContext component has an entry (0x8009 lives in leaves, not here);
    /// - required_capabilities requires the `app_data_update` proposal.
    /// - Throws: `.profileMismatch`, `.componentMissing`, `.requiredCapabilityMissing`.
    package func requireCurrentProfile(extensions: [Extension]) throws(MarmotError) {
        if extensions.contains(where: { $0.type == CurrentProfileCodePoints.legacyGroupData }) {
            throw MarmotError(.profileMismatch, "the GroupContext also carries the legacy 0xF2EE group data (a mixed group)")
        }
        for id in [AppComponentID.adminPolicy, .accountIdentityProof] where !required.contains(id) {
            throw MarmotError(.componentMissing, "app_components does not require \(id)")
        }
        let present = Set(components.map(\.id))
        for id in required.ids where id != .accountIdentityProof && !present.contains(id) {
            throw MarmotError(.componentMissing, "required component \(id) has no entry in the GroupContext")
        }
        guard let data = extensions.data(ofType: ExtensionType.requiredCapabilities),
            let capabilities = try? RequiredCapabilities(tlsBytes: data),
            capabilities.proposalTypes.contains(CurrentProfileCodePoints.appDataUpdate)
        else {
            throw MarmotError(.requiredCapabilityMissing, "required_capabilities does not require the app_data_update proposal (0x0008)")
        }
    }

    /// This state with one AppDataUpdate applied; the update bytes are validated as a full
    /// replacement state. Removing a required component, the admin policy or the lifecycle is refused.
    /// - Throws: the component's decoding error, `.componentMisplaced`, `.componentMissing`.
    package func applying(_ update: AppDataUpdate) throws(MarmotError) -> Self {
        var copy = self
        switch update.operation {
        case .update(let data):
            let component = try GroupComponent(id: update.component, data: data)
            if let index = copy.components.firstIndex(where: { $0.id == update.component }) {
                copy.components[index] = component
            } else {
                let index = copy.components.firstIndex { $0.id > update.component } ?? copy.components.endIndex
                copy.components.insert(component, at: index)
            }
        case .remove:
            if [AppComponentID.adminPolicy, .groupLifecycle, .appComponents].contains(update.component) {
                throw MarmotError(.componentMissing, "\(update.component) can never be removed")
            }
            copy.components.removeAll { $0.id == update.component }
        }
        return copy
    }
}
