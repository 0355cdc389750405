// What a member does in a member-action step, with its fields typed. `group` names the chat to act
// on (nil: the member's only active chat); `channel` likewise for channels. Labels are member
// labels, resolved to keys when the step runs.

/// A GroupCore action as a scenario writes it.
package enum MemberAction: Sendable, Hashable {
    /// `role`: the role every invitee not in `admins` is invited with (applied at its join).
    case createGroup(
        with: [String], name: String, description: String, onPartialFailure: PartialFailureChoice, admins: [String], role: RoleName?)
    case createChat(with: String)
    /// `role`: the role every invitee is invited with (applied at its join).
    case addMembers([String], group: String?, onPartialFailure: PartialFailureChoice, role: RoleName?)
    /// Answers the member's oldest pending decision (left by `on-partial-failure: ask`).
    case decide(DecisionAnswer)
    case removeMembers([String], group: String?, withMessages: Bool)
    case leave(group: String?)
    case rename(to: String, group: String?)
    case send(text: String, group: String?)
    /// `count` messages, `"<text> <n>"` with n from 1 (zero-padded to the width of `count`), one
    /// every `every` of the world's clock: a backlog, without a thousand steps.
    case sendMany(text: String, count: Int, every: ScenarioDuration, group: String?)
    case setRole(member: String, role: RoleName, group: String?)
    /// One batch: every listed member gets `role`, or (one change refused) nobody changes.
    case setRoles(members: [String], role: RoleName, group: String?)
    /// Deletes the message with this text.
    case deleteMessage(text: String, group: String?)
    case block(member: String, group: String?)
    case unblock(member: String, group: String?)
    case createLink(role: RoleName, approval: Bool, group: String?)
    case changeLink(role: RoleName, group: String?)
    case deleteLink(group: String?)
    /// Joins by the link the named `create-link` step made.
    case joinByLink(link: String)
    case acceptJoin(member: String, role: RoleName, group: String?)
    case rejectJoin(member: String, group: String?)
    /// `notify: false`: deleted for everyone, nobody told.
    case deleteGroup(keepHistory: Bool, notify: Bool, group: String?)
    /// An admin sends `member` the chat's last messages as history (again).
    case shareHistory(member: String, group: String?)
    case setPreferences(PreferenceChanges, group: String?)
    /// Sends a message with media attached: a voice message or a file.
    case sendMedia(text: String, kind: MediaKindName, group: String?)
    /// Starts a 1:1 chat with a fellow member of the group.
    case startDirectMessage(member: String, group: String?)
    /// Reacts to the message with this text.
    case react(message: String, emoji: String, group: String?)
    case publishRoles(group: String?)
    case mute(group: String?)
    /// Answers an invitation waiting for the member (the one of the group named `group`, else its
    /// only one): join it, or discard its welcome.
    /// Opens the link the named `create-link` step made, or the link `text` as given.
    case openLink(link: String?, text: String?)
    /// Joins, or drops, the prepared group named `group` (else the only one).
    case joinPrepared(group: String?)
    case cancelPrepared(group: String?)
    case acceptInvite(group: String?)
    case declineInvite(group: String?)
    /// Opens the chat with a view of `pageSize` messages (the core's default when nil).
    case openChat(pageSize: Int?, group: String?)
    /// Shows one more page of the open chat's older messages.
    case loadOlder(group: String?)
    /// Changes the group's description (admins).
    case describe(to: String, group: String?)
    /// Sets the group's picture (admins): its bytes (read when the file loaded) and MIME type.
    case setImage(image: [UInt8], mimeType: String, group: String?)
    /// Moves the group to these relays (admins; relay names).
    case setRelays([String], group: String?)
    /// An admin moves the group to a fresh nostr_group_id (current profile, component 0x8004).
    case rotateRouting(group: String?)
    /// An admin disbands the group for everyone (current profile, lifecycle component 0x800c).
    case disband(group: String?)
    /// Commits a fresh leaf of the member's own.
    case selfUpdate(group: String?)
    case unmute(group: String?)
    case createChannel(relays: [String], name: String, description: String, welcome: String, owners: [String])
    case retryChannel(channel: String?)
    case testRelays(channel: String?)
    /// Joins by the link of `from`'s channel.
    case joinChannel(channel: String?, from: String)
    case retryJoin(channel: String?)
    case broadcast(text: String, channel: String?)
    /// A subscriber leaves the channel.
    case leaveChannel(channel: String?)
    /// An owner deletes the channel for everyone.
    case deleteChannel(channel: String?)
}

/// The group preferences a `set-preferences` step lists (nil: keep the default).
package struct PreferenceChanges: Sendable, Hashable {
    package var reactions: Bool?
    package var fullDeletion: Bool?
    package var disappearAfter: ScenarioDuration?
    package var historyForNewMembers: Bool?
    package var welcome: String?
    package var voiceMessages: Bool? = nil
    package var files: Bool? = nil
    package var directMessages: Bool? = nil
}

/// What a `send-media` step attaches (GroupCore's `MediaKind`).
package enum MediaKindName: String, Sendable, Hashable, CaseIterable {
    case voice, file
}
