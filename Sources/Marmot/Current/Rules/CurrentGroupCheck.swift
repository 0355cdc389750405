import ErrorCodes
import MLS
import Nostr

extension MarmotError.Code {
    /// A member leaf that does not support a component the group requires (or a required agent-stream role).
    package static let memberLacksComponent = Self("group.memberLacksComponent")
    /// The Welcome's GroupInfo signer is not an active admin of the joined state.
    package static let inviterNotAdmin = Self("group.inviterNotAdmin")
    /// An admin of the admin policy has no member leaf.
    package static let adminNotMember = Self("group.adminNotMember")
}

/// The resulting-state rules of the current profile over a whole group: its GroupContext
/// components and every member leaf. A joiner runs them on the Welcome's state (it cannot judge the
/// Add against the parent state, protocol-core/joining.md); a member runs them on every epoch a
/// commit would produce.
package struct CurrentGroupCheck: Sendable {
    package let components: GroupComponents
    /// Each occupied leaf's index and verified components.
    package let leaves: [(index: UInt32, leaf: LeafComponents)]

    /// Checks the GroupContext (profile rules, every component valid), every leaf's identity proof
    /// and support for every required component and agent-stream role, and that every admin has a leaf.
    /// - Throws: `.profileMismatch`, `.componentMissing`, a component's code, an `identityProof.*`
    ///   code (the reason names the leaf), `.memberLacksComponent`, `.adminNotMember`.
    package init(groupContextExtensions: [Extension], tree: RatchetTree, suite: UInt16) throws(MarmotError) {
        let components = try GroupComponents(extensions: groupContextExtensions)
        var leaves: [(index: UInt32, leaf: LeafComponents)] = []
        var capabilities: [(index: UInt32, capabilities: Capabilities)] = []
        for index in tree.occupiedLeaves {
            guard let node = tree.leaf(index) else { continue }
            let leaf: LeafComponents
            do { leaf = try LeafComponents(verifying: node, suite: suite) } catch {
                throw MarmotError(error.code, "leaf \(index): \(error.reason)")
            }
            for id in components.required.ids where !leaf.supported.contains(id) {
                throw MarmotError(.memberLacksComponent, "leaf \(index) does not support required component \(id)")
            }
            leaves.append((index, leaf))
            capabilities.append((index, node.capabilities))
        }
        if let agentStream = components.agentStream {
            do { try agentStream.requireRoles(of: capabilities) } catch { throw MarmotError(.memberLacksComponent, error.reason) }
        }
        if let admins = components.admins {
            do { try admins.requireMembers(Set(leaves.map { $0.leaf.account.bytes })) } catch {
                throw MarmotError(.adminNotMember, error.reason)
            }
        }
        self.components = components
        self.leaves = leaves
    }

    /// The join-time rule of admin-policy-v1.md: the Welcome's GroupInfo signer leaf belongs to an
    /// active admin (this component is the sole membership-add authority).
    /// - Throws: `.inviterNotAdmin`.
    package func requireInviterIsAdmin(signerLeaf: UInt32) throws(MarmotError) {
        guard let signer = leaves.first(where: { $0.index == signerLeaf }) else {
            throw MarmotError(.inviterNotAdmin, "the GroupInfo signer leaf \(signerLeaf) is blank")
        }
        guard let admins = components.admins, admins.contains(signer.leaf.account.bytes) else {
            throw MarmotError(.inviterNotAdmin, "the inviter \(signer.leaf.account.hex) is not an admin")
        }
    }
}
