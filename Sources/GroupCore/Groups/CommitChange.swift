import Nostr

/// A commit the core asks its engine for.
enum CommitChange: Sendable {
    case add([Event])
    case remove([PublicKey])
    case rename(String)
    case selfUpdate

    var label: String {
        switch self {
        case .add(let keyPackages): "add \(keyPackages.count)"
        case .remove(let members): "remove \(members.count)"
        case .rename: "rename"
        case .selfUpdate: "self-update"
        }
    }
}
