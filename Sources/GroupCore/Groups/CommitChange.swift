import EngineInterface
import Nostr

/// A commit the core asks its engine for.
enum CommitChange: Sendable, Codable {
    case add([Event])
    case remove([PublicKey])
    case rename(String)
    case selfUpdate
    /// Other group data (MIP-01: description, relays) changed by an admin; `label` names the action.
    case groupData(GroupDataChanges, label: String)
    /// Marmot admins (MIP-01 `admin_pubkeys`) gained and lost, applied to the list of the epoch
    /// the commit is built in; `label` names the action it serves.
    case admins(adding: [PublicKey], removing: [PublicKey], label: String)
    /// The group ended for everyone (current profile: lifecycle component 0x800c).
    case disband

    /// The admin list after this change, from `current`.
    static func admins(_ current: [PublicKey], adding: [PublicKey], removing: [PublicKey]) -> [PublicKey] {
        (current.filter { !removing.contains($0) } + adding.filter { !current.contains($0) })
    }

    var label: String {
        switch self {
        case .add(let keyPackages): "add \(keyPackages.count)"
        case .remove(let members): "remove \(members.count)"
        case .rename: "rename"
        case .selfUpdate: "self-update"
        case .disband: "disband"
        case .admins(_, _, let label): label
        case .groupData(_, let label): label
        }
    }
}
