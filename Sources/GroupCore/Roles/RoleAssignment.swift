import Nostr

/// One member and the role it is to hold: an entry of a batch role change, or of an invitation
/// that names roles. A list of these (not a dictionary) keeps the order the user gave, and traces
/// print it the same way on every run.
package struct RoleAssignment: Hashable, Sendable, Codable {
    package var member: PublicKey
    package var role: Role

    package init(member: PublicKey, role: Role) {
        self.member = member
        self.role = role
    }
}
