// The one permission table of the role hierarchy: every sender-side refusal, every receiver-side
// rejection and the generated scenario matrix (ScenarioRunner's RoleMatrix) are read from `rules`.
// A request is permitted when every rule naming its action permits it; the first rule that does
// not is the typed reason, the same code on both sides (sender error, receiver rejection).

/// What a member does that the hierarchy governs.
package enum RoleAction: String, Hashable, Sendable, Codable, CaseIterable {
    /// Post a chat message.
    case send
    /// Delete a message (the target is its author).
    case deleteMessage = "delete-message"
    /// Hide a member's messages for everyone, or lift that.
    case block, unblock
    /// Change a member's role (`newRole`).
    case setRole = "set-role"
    /// Remove a member by commit (MIP-03: only a Marmot admin commits a removal; the table says
    /// so first, so that the sender's refusal names the rule, and the engine checks it again).
    case removeMember = "remove-member"
    /// Publish the role table for joiners.
    case snapshot
    /// Hide all of a member's messages (removing it with its messages).
    case purge
    /// Leave the group (an admin steps down first).
    case leave
    /// React to a message (kind 7).
    case react
    /// Set the group preferences.
    case setPreferences = "set-preferences"
    /// Create, change or delete the group link (`newRole`: the role joiners get).
    case manageLink = "manage-link"
    /// Accept (`newRole`) or reject a pending join request.
    case admit
    /// Delete the group for everyone.
    case deleteGroup = "delete-group"
    /// Post a voice message (a chat message whose `imeta` names an audio type).
    case sendVoice = "send-voice"
    /// Post a file (a chat message with any other `imeta`).
    case sendFile = "send-file"
    /// Start a 1:1 chat with a fellow member from the group.
    case directMessage = "direct-message"
}

/// One permission check, named by the reason code a refusal carries.
package enum PermissionCheck: String, Hashable, Sendable, Codable, CaseIterable {
    case observerCannotSend = "role.observerCannotSend"
    case observerCannotReact = "role.observerCannotReact"
    case deleteNeedsModerator = "role.deleteNeedsModerator"
    case blockNeedsAdmin = "role.blockNeedsAdmin"
    case blockTargetNotBelow = "role.blockTargetNotBelow"
    case targetNotBelow = "role.targetNotBelow"
    case newRoleNotBelow = "role.newRoleNotBelow"
    case removeNeedsAdmin = "role.removeNeedsAdmin"
    case removeTargetNotBelow = "role.removeTargetNotBelow"
    case snapshotFromNonAdmin = "role.snapshotFromNonAdmin"
    case linkNeedsAdmin = "role.linkNeedsAdmin"
    case purgeNeedsAdmin = "role.purgeNeedsAdmin"
    case lastOwner = "role.lastOwner"
    case preferencesNeedOwner = "role.preferencesNeedOwner"
    case reactionsDisabled = "pref.reactionsDisabled"
    case fullDeletionDisabled = "pref.fullDeletionDisabled"
    case deleteGroupNeedsOwner = "role.deleteGroupNeedsOwner"
    case voiceMessagesDisabled = "pref.voiceMessagesDisabled"
    case filesDisabled = "pref.filesDisabled"
    case directMessagesDisabled = "pref.directMessagesDisabled"

    /// The stable reason code (sender error code and receiver rejection reason).
    package var reason: String { rawValue }
}

/// Who does what to whom.
package struct PermissionRequest: Hashable, Sendable, Codable {
    package var actor: Role
    package var action: RoleAction
    /// The role of the member acted on (the author, for deletions); nil when there is none.
    package var target: Role?
    /// For `setRole`: the role given.
    package var newRole: Role?
    /// For `deleteMessage`: the message is the actor's own; for `setRole`: the actor's own role.
    package var ownTarget: Bool
    /// Owners other than the actor (the last owner may not step down or leave).
    package var otherOwners: Int
    /// The group's preferences when the action happens (they switch some actions off).
    package var preferences: GroupPreferences

    package init(
        actor: Role, action: RoleAction, target: Role? = nil, newRole: Role? = nil, ownTarget: Bool = false, otherOwners: Int = 0,
        preferences: GroupPreferences = GroupPreferences()
    ) {
        self.otherOwners = otherOwners
        self.preferences = preferences
        self.actor = actor
        self.action = action
        self.target = target
        self.newRole = newRole
        self.ownTarget = ownTarget
    }
}

/// One row of the table: which actions it governs and what it permits.
package struct PermissionRule: Sendable {
    package let check: PermissionCheck
    package let actions: Set<RoleAction>
    /// What the rule says, for reports and the matrix.
    package let summary: String
    let permits: @Sendable (PermissionRequest) -> Bool
}

package enum PermissionTable {
    /// Product rule set of the role hierarchy (issue 7), one row per check.
    package static let rules: [PermissionRule] = [
        PermissionRule(check: .observerCannotSend, actions: [.send, .sendVoice, .sendFile], summary: "observers cannot send") {
            $0.actor != .observer
        },
        PermissionRule(check: .observerCannotReact, actions: [.react], summary: "observers cannot react (they only read)") {
            $0.actor != .observer
        },
        PermissionRule(
            check: .deleteNeedsModerator, actions: [.deleteMessage], summary: "anyone deletes their own messages; moderator+ deletes any"
        ) {
            $0.ownTarget || $0.actor >= .moderator
        },
        PermissionRule(check: .blockNeedsAdmin, actions: [.block, .unblock], summary: "admin+ blocks and unblocks") {
            $0.actor >= .admin
        },
        PermissionRule(
            check: .blockTargetNotBelow, actions: [.block, .unblock], summary: "only a member of lower rank is blocked or unblocked"
        ) {
            ($0.target ?? .owner) < $0.actor
        },
        PermissionRule(
            check: .linkNeedsAdmin, actions: [.manageLink, .admit], summary: "admin+ manages the group link and decides admissions"
        ) {
            $0.actor >= .admin
        },
        PermissionRule(check: .deleteGroupNeedsOwner, actions: [.deleteGroup], summary: "only owners delete the group") {
            $0.actor == .owner
        },
        PermissionRule(check: .preferencesNeedOwner, actions: [.setPreferences], summary: "only owners set the group preferences") {
            $0.actor == .owner
        },
        PermissionRule(check: .reactionsDisabled, actions: [.react], summary: "no reactions while the preferences switch them off") {
            $0.preferences.reactions
        },
        PermissionRule(
            check: .fullDeletionDisabled, actions: [.deleteMessage], summary: "no deletion for everyone while the preferences switch it off"
        ) {
            $0.preferences.fullDeletion
        },
        PermissionRule(
            check: .voiceMessagesDisabled, actions: [.sendVoice], summary: "no voice messages while the preferences switch them off"
        ) {
            $0.preferences.voiceMessages
        },
        PermissionRule(check: .filesDisabled, actions: [.sendFile], summary: "no files while the preferences switch them off") {
            $0.preferences.files
        },
        PermissionRule(
            check: .directMessagesDisabled, actions: [.directMessage],
            summary: "no 1:1 chats started from the group while the preferences switch them off"
        ) {
            $0.preferences.directMessages
        },
        PermissionRule(check: .purgeNeedsAdmin, actions: [.purge], summary: "admin+ removes a member with its messages") {
            $0.actor >= .admin
        },
        PermissionRule(check: .lastOwner, actions: [.setRole, .leave], summary: "the last owner neither steps down nor leaves") {
            !($0.actor == .owner && $0.ownTarget && $0.otherOwners == 0)
        },
        PermissionRule(
            check: .targetNotBelow, actions: [.setRole],
            summary: "only the role of a member of lower rank changes (anyone lowers their own)"
        ) {
            ($0.target ?? .owner) < $0.actor || $0.ownTarget
        },
        PermissionRule(
            check: .newRoleNotBelow, actions: [.setRole, .manageLink, .admit],
            summary: "the new role ranks below the actor's; owners may appoint owners"
        ) {
            guard let new = $0.newRole else { return $0.action != .setRole }
            return new < $0.actor || ($0.actor == .owner && new == .owner)
        },
        // Before the rank rule: a moderator's removal is refused for not being a Marmot admin,
        // whatever the target. Owner and admin ranks are exactly the Marmot admins (RoleView).
        PermissionRule(
            check: .removeNeedsAdmin, actions: [.removeMember], summary: "only Marmot admins (owners, admins) remove members (MIP-03)"
        ) {
            $0.actor.isMarmotAdmin
        },
        PermissionRule(
            check: .removeTargetNotBelow, actions: [.removeMember, .purge], summary: "admins remove lower ranks; owners anyone else"
        ) {
            ($0.target ?? .owner) < $0.actor || $0.actor == .owner
        },
        PermissionRule(check: .snapshotFromNonAdmin, actions: [.snapshot], summary: "only a Marmot admin publishes the role table") {
            $0.actor >= .admin
        },
    ]

    /// A batch is refused when any of its requests is; the request it names is the one whose
    /// reason comes first in code order, so that sender and receivers, whatever order they hold
    /// the batch in (receivers sort it by member key, which differs per run), give one reason.
    package static func batchRefusal(_ requests: [PermissionRequest], disabled: Set<PermissionCheck> = []) -> PermissionRequest? {
        requests.compactMap { request in refusal(request, disabled: disabled).map { (request, $0) } }
            .min { $0.1.reason < $1.1.reason }?.0
    }

    /// The first check `request` fails (skipping `disabled`), or nil when it is permitted.
    package static func refusal(_ request: PermissionRequest, disabled: Set<PermissionCheck> = []) -> PermissionCheck? {
        rules.first { $0.actions.contains(request.action) && !disabled.contains($0.check) && !$0.permits(request) }?.check
    }
}
