import ErrorCodes

/// The dialect of Marmot an engine instance speaks, chosen per member.
///
/// - `legacy`: the MIPs 00–03 as MDK 0.8.0 implements them (group data in the 0xF2EE GroupContext
///   extension, kind-443/30443 key packages with MDK 0.8.0's tags, commit races by `created_at` then id).
/// - `current`: the adopted Marmot specification (`marmot-protocol/marmot`: `foundation/`,
///   `protocol-core/`, `app-components/`, `transports/nostr.md`), which MDK ≥ 0.9.7, White Noise and the
///   other shipping clients speak: group state in the `app_data_dictionary` GroupContext extension,
///   changes as `app_data_update` proposals, account identity proofs in every leaf.
///
/// The two do not interoperate: an instance of one profile refuses the other's key packages and
/// Welcomes with ``EngineError/Code/profileMismatch``, never half-joining.
public enum MarmotProfile: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    case legacy
    case current

    public var description: String { rawValue }

    /// The capability an engine declares for each profile it can speak (an engine that declares
    /// neither is a legacy engine: drivers written before profiles existed).
    public var capability: EngineCapability {
        switch self {
        case .legacy: .profileLegacy
        case .current: .profileCurrent
        }
    }
}

extension MarmotProfile {
    /// What every engine certified for this profile must offer: the operations a Marmot group
    /// cannot do without (publish a key package, create, add, remove, leave, self-update, change the
    /// group's data, send and open messages, join by Welcome), and the profile itself. An engine that
    /// lacks one of these fails certification for the profile; a capability outside this set
    /// (images, declining a Welcome, exact state, storage keys…) is optional, and a scenario needing
    /// it is `unsupported` on an engine that lacks it.
    public var requiredCapabilities: [EngineCapability] {
        [
            capability, .keyPackage, .createGroup, .addMembers, .removeMembers, .leave, .selfUpdate, .updateGroupData,
            .applicationMessages, .processWelcome,
        ]
    }
}

extension EngineCapabilities {
    /// The capabilities `profile` requires that this engine does not declare, in the profile's
    /// order. The profile's own capability counts as declared for legacy when the engine names no
    /// profile at all (drivers written before profiles speak legacy).
    /// On the legacy profile a key package of either kind meets the key-package requirement: MIP-00
    /// began with kind 443, and legacy peers (MDK 0.8.0) still read it, so an engine that predates
    /// kind 30443 (MDK 0.7.0) is a legacy engine whose scenarios needing a 30443 copy are unsupported.
    public func missingRequirements(of profile: MarmotProfile) -> [EngineCapability] {
        profile.requiredCapabilities.filter { required in
            switch required {
            case profile.capability: !profiles.contains(profile)
            case .keyPackage where profile == .legacy: !supports(.keyPackage) && !supports(.legacyKeyPackage)
            default: !supports(required)
            }
        }
    }
}

extension EngineCapability {
    /// Instances can speak the legacy profile (MIP-00…03, MDK 0.8.0's dialect).
    public static let profileLegacy = Self(rawValue: "profile.legacy")
    /// Instances can speak the adopted specification's current profile.
    public static let profileCurrent = Self(rawValue: "profile.current")
}

extension EngineCapabilities {
    /// The profiles this engine's instances can speak; an engine that names none speaks legacy only.
    public var profiles: Set<MarmotProfile> {
        let named = Set(MarmotProfile.allCases.filter { supports($0.capability) })
        return named.isEmpty ? [.legacy] : named
    }
}

extension EngineError.Code {
    /// A key package or Welcome of the other profile (a legacy key package offered to a current
    /// instance, or the reverse). The reason names both profiles, so an app can tell its user
    /// "this contact must upgrade" instead of "this contact has no key package".
    public static let profileMismatch = Self("profile_mismatch")
}
