import Nostr

/// What we intend for the members of our chats beyond the commit in flight: the roles invitees
/// get once welcomed, actions waiting for the user's decision about their invitees, and leaves.
struct MembershipBook: Sendable {
    /// Chats we asked to leave (so that our own leave is told as `left`, not `removed`).
    var leaveRequested: Set<String> = []
    /// Chats we leave once our step-down commit (out of `admin_pubkeys`) is merged.
    var leavingAfterStepDown: Set<String> = []
    /// Roles chosen at invitation for invitees not welcomed yet: announced (`invitation-role`) once
    /// the commit or creation that welcomes them has been made.
    var invitationRoles: [PublicKey: Role] = [:]
    /// Invitees of a forged invitation (a modified client skipping its own check): their role is
    /// announced for receivers to judge, and no admin-bit commit follows.
    var forgedInvitationRoles: Set<PublicKey> = []
    /// Per chat, invitees we invited as owner or admin: at their join announcement we commit the
    /// Marmot admin bit the role needs.
    var adminInvitations: [String: Set<PublicKey>] = [:]
    /// 1:1 welcomes declined per sender, because a group refused the sender's `direct-message`.
    var declinedDirectMessages: [PublicKey: Int] = [:]
    /// Actions waiting for the user's decision about invitees, by id (KeyPackages/GroupCore+Decisions.swift).
    var decisions: [String: DecisionRecord] = [:]
    /// Welcomes processed but not accepted, by welcome id, until the user answers
    /// (Groups/GroupCore+InvitationPrompt.swift). Not persisted: the engine keeps its pending
    /// welcomes, but a restarted core does not list them again.
    var invitations: [String: HeldInvitation] = [:]
}
