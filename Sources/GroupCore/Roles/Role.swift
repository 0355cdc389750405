/// A member's rank in a group, highest first: owner > admin > moderator > member > relay > observer.
///
/// Owners and admins are Marmot admins (MIP-01 `admin_pubkeys`), which is what MLS and every engine
/// enforce for commits (MIP-03: non-admins may only self-update or leave). The finer ranks live in
/// GroupCore's role table, carried inside the group as control messages (see `ControlMessage`).
/// `relay` is a bridge account (Step 7): it may post, but ranks below members so it can act on nobody.
package enum Role: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case owner, admin, moderator, member, relay, observer

    package var rank: Int {
        switch self {
        case .owner: 5
        case .admin: 4
        case .moderator: 3
        case .member: 2
        case .relay: 1
        case .observer: 0
        }
    }

    /// Whether the role needs the member in the group data's `admin_pubkeys`.
    package var isMarmotAdmin: Bool { self == .owner || self == .admin }

    package static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }
}
