import EngineInterface
import Nostr

// Roles given to several members at once: a batch change (`set-roles`, all or nothing) and roles
// chosen when inviting (`invitation-role`, applied once the invitee announces its join). Both are
// judged by the permission table on the sender and on every receiver, like a single `set-role`.
extension GroupCore {
    func performRoleBatch(_ action: AppAction, forged: Bool) async {
        switch action {
        case .setRoles(let chatID, let roles):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let changes = Self.distinctAssignments(roles)
            guard !changes.isEmpty, changes.allSatisfy({ chat.members.contains($0.member) }) else {
                fail(CoreError(.invalidAction, "a batch names members of \(chatID.prefix(8)) only, at least one"), chatID: chatID)
                return
            }
            let view = roleView(of: chat)
            if !forged {
                // Every change is judged against the table as it is now; any refusal refuses all,
                // with the reason receivers will give (`PermissionTable.batchRefusal`).
                let requests = changes.map { change in
                    PermissionRequest(
                        actor: view.role(of: publicKey), action: .setRole, target: view.role(of: change.member), newRole: change.role,
                        ownTarget: change.member == publicKey, otherOwners: view.owners(besides: publicKey))
                }
                if let refused = PermissionTable.batchRefusal(requests, disabled: disabledPermissionChecks) {
                    _ = permitted(refused, in: chatID)
                    return
                }
            }
            await sendControl(.setRoles(changes.sorted { $0.member.hex < $1.member.hex }), in: chat)
            guard !forged else { return }
            // Owners and admins need the Marmot admin bit (one commit for the whole batch).
            let adding = changes.filter { $0.role.isMarmotAdmin && !chat.admins.contains($0.member) }.map(\.member)
            let removing = changes.filter { !$0.role.isMarmotAdmin && chat.admins.contains($0.member) }.map(\.member)
            guard !adding.isEmpty || !removing.isEmpty else { return }
            await commit(.admins(adding: adding, removing: removing, label: "admins"), in: chat)
        case .addMembers(let chatID, let peers, let policy, let roles):
            guard let chat = writableChat(chatID, needsAdmin: true) else { return }
            guard forged || invitationRolesPermitted(roles, in: chat) else { return }
            remember(roles, inviting: peers, forged: forged)
            await perform(.addMembers(chatID: chatID, peers: peers, onPartialFailure: policy))
        case .createGroup(let peers, let name, let description, let policy, let admins, let roles):
            // The creator is the owner: the table allows it any role for an invitee.
            remember(roles, inviting: peers, forged: false)
            await perform(.createGroup(peers: peers, name: name, description: description, onPartialFailure: policy, admins: admins))
        default:
            break
        }
    }

    /// An invitee enters the table as a member, so its invitation role is judged as a `set-role`
    /// on a member by us.
    private func invitationRolesPermitted(_ roles: [RoleAssignment], in chat: ChatRecord) -> Bool {
        let view = roleView(of: chat)
        return Self.distinctAssignments(roles).allSatisfy { change in
            permitted(
                PermissionRequest(actor: view.role(of: publicKey), action: .setRole, target: .member, newRole: change.role), in: chat.chatID
            )
        }
    }

    private func remember(_ roles: [RoleAssignment], inviting peers: [PublicKey], forged: Bool) {
        for change in Self.distinctAssignments(roles) where peers.contains(change.member) {
            membership.invitationRoles[change.member] = change.role
            if forged {
                membership.forgedInvitationRoles.insert(change.member)
            } else {
                membership.forgedInvitationRoles.remove(change.member)
            }
        }
    }

    /// After the creation or add commit that welcomed them: the invitees' roles, one control each,
    /// in the joiners' first epoch (after the snapshot, so they can read them too).
    func announceInvitationRoles(in chatID: String) async {
        guard let chat = chats[chatID] else { return }
        let invited = chat.members.filter { membership.invitationRoles[$0] != nil }.sorted { $0.hex < $1.hex }
        for member in invited {
            guard let role = membership.invitationRoles.removeValue(forKey: member), let current = chats[chatID] else { continue }
            await sendControl(.invitationRole(target: member, role: role), in: current)
            // A forged invitation stops at the control message, as a forged set-role does.
            if membership.forgedInvitationRoles.remove(member) == nil, role.isMarmotAdmin {
                membership.adminInvitations[chatID, default: []].insert(member)
            }
        }
    }

    /// An invitee we invited as owner or admin announced its join: the role needs the Marmot
    /// admin bit, which only a commit gives.
    func joinedWithInvitationRole(_ member: PublicKey, in chatID: String) async {
        guard membership.adminInvitations[chatID]?.remove(member) != nil, let chat = chats[chatID], chat.admins.contains(publicKey),
            !chat.admins.contains(member)
        else { return }
        await commit(.admins(adding: [member], removing: [], label: "admins"), in: chat)
    }

    /// The first entry per member wins (a batch naming a member twice is one change).
    static func distinctAssignments(_ roles: [RoleAssignment]) -> [RoleAssignment] {
        var seen: Set<PublicKey> = []
        return roles.filter { seen.insert($0.member).inserted }
    }
}
