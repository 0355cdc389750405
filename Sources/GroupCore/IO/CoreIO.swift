// GroupCore's boundary with the world. The core does no I/O and reads no clock: the host (the
// simulation, or an app) feeds it inputs with the current time and carries out the effects it
// returns. Engine calls are the only awaited dependency; the host awaits each `handle` fully
// before the next input, so a run stays deterministic.
import Nostr

/// What a UI can ask of the core (fire-and-forget: results arrive as state updates). Traces write
/// an action by `traceText` (IO/CoreTrace.swift): a new case or parameter is written there.
package enum AppAction: Hashable, Sendable, Codable {
    case createChat(peer: PublicKey)
    /// `admins`: invitees who become admins beside the creator (MIP-01 `admin_pubkeys`); an invitee
    /// whose key package fails is not made admin. `roles`: invitees given a role, applied once they
    /// announce their join (the creator is the owner, so any role may be given).
    case createGroup(
        peers: [PublicKey], name: String, description: String, onPartialFailure: PartialFailurePolicy = .proceed,
        admins: [PublicKey] = [], roles: [RoleAssignment] = []
    )
    /// `onPartialFailure` as for `createGroup`: with `.abort` nobody is added when any invitee
    /// fails, with `.ask` the user decides. `roles`: invitees given a role, applied once they
    /// announce their join (judged by the permission table as a `set-role` on a member; only
    /// under `.proceed`).
    case addMembers(chatID: String, peers: [PublicKey], onPartialFailure: PartialFailurePolicy = .proceed, roles: [RoleAssignment] = [])
    /// Settles a pending decision (`AppState.pendingDecisions`, left by an action whose policy was
    /// `.ask`): try the failed invitees again, go on without them, or drop the action.
    case decide(decisionID: String, choice: DecisionChoice)
    /// `withMessages`: also hide everything they wrote, for everyone (a `purge` per member before
    /// the removal commit).
    case removeMembers(chatID: String, members: [PublicKey], withMessages: Bool = false)
    case leave(chatID: String)
    case rename(chatID: String, name: String)
    /// Changes the group's description (MIP-01 group data; admins only).
    case updateDescription(chatID: String, description: String)
    /// Moves the group to these relays (MIP-01 group data; admins only): every member then reads
    /// and publishes the group's events there.
    case updateRelays(chatID: String, relays: [String])
    /// Moves the group to a fresh address (current profile: a new `nostr_group_id` in the routing
    /// component 0x8004; admins only). The chat keeps its id and listens at every address it has
    /// had; its events are then published at the new one.
    case rotateRouting(chatID: String)
    /// Ends the group for everyone (current profile: lifecycle component 0x800c, admins only): one
    /// commit removes every other member and marks the group disbanded; nobody sends in it again.
    case disband(chatID: String)
    /// Sets the group's picture (MIP-01 group image; admins only): the engine encrypts it, the core
    /// uploads the blob (`CoreEffect.uploadBlob`) and commits what opens it.
    case setImage(chatID: String, image: ImageFile)
    case sendMessage(chatID: String, text: String)
    /// Opens a chat: its view shows the newest `pageSize` messages, and the chat counts as read.
    case openChat(chatID: String, pageSize: Int = ChatViewState.defaultPageSize)
    /// Shows one more page of older messages in the open chat (`ChatViewState.canLoadOlder`).
    case loadOlderMessages(chatID: String)
    /// Commits a fresh leaf of ours (MIP-02 self-update: post-compromise security), on demand
    /// rather than only after joining.
    case selfUpdate(chatID: String)
    /// Gives `member` a role (Roles/PermissionTable.swift says who may).
    case setRole(chatID: String, member: PublicKey, role: Role)
    /// Deletes a message (by rumor id) for everyone.
    case deleteMessage(chatID: String, messageID: String)
    /// Hides a member's messages for everyone (kept, flagged), or lifts that.
    case block(chatID: String, member: PublicKey)
    case unblock(chatID: String, member: PublicKey)
    /// Sets the group preferences (owners).
    case setPreferences(chatID: String, preferences: GroupPreferences)
    /// Changes several members' roles at once: every change is allowed or none is made (the first
    /// refusal's reason is the error; receivers judge the batch the same way).
    case setRoles(chatID: String, roles: [RoleAssignment])
    /// Sends a chat message carrying media (a voice message for an audio type, else a file),
    /// subject to the group's `voice-messages` / `files` preference.
    case sendMedia(chatID: String, text: String, media: MediaAttachment)
    /// Starts a 1:1 chat with `member`, a fellow member of the group `chatID`, subject to the
    /// group's `direct-messages` preference (announced in the group, then `createChat`).
    case startDirectMessage(chatID: String, member: PublicKey)
    /// Reacts to a message (by rumor id) with `emoji`.
    case react(chatID: String, messageID: String, emoji: String)
    /// Re-publishes the role table (what an admin sends joiners; admins only).
    case publishRoleTable(chatID: String)
    /// The group's one link: joiners get `role`; with `approval`, requests wait for an admin.
    case createGroupLink(chatID: String, role: Role, approval: Bool)
    case changeGroupLink(chatID: String, role: Role)
    case deleteGroupLink(chatID: String)
    /// Decides a pending join request.
    case admitJoin(chatID: String, requester: PublicKey, role: Role)
    case rejectJoin(chatID: String, requester: PublicKey)
    /// Asks the link's admin to let us in (the link is its admin's key and the token).
    case joinByLink(admin: PublicKey, token: String)
    /// Joins the group of an invitation waiting in `AppState.invitations` (by welcome id).
    case acceptInvitation(welcomeID: String)
    /// Discards an invitation's welcome (`engine.declineWelcome`); the inviter is not told.
    case declineInvitation(welcomeID: String)
    /// Reads a shared group link (GroupLinkText) and shows its group as prepared while its admin
    /// confirms the link stands; nothing is joined.
    case openLink(text: String)
    /// Asks to join a prepared group (the join request of `joinByLink`).
    case joinPrepared(token: String)
    /// Drops a prepared group.
    case cancelPrepared(token: String)
    /// Deletes the group for everyone (owners); members keep or drop its history. With `notify`
    /// false, members see it deleted but get no `deleted` chat event.
    case deleteGroup(chatID: String, keepHistory: Bool, notify: Bool = true)
    /// An admin sends `member` the chat's last messages as history again (what it sends every
    /// joiner after adding it, while the owner's preference is on).
    case shareHistory(chatID: String, member: PublicKey)
    /// The action as a modified client that skips its own permission checks would send it: how
    /// scenarios prove that every receiver rejects what an honest sender refuses.
    indirect case forged(AppAction)
    case markRead(chatID: String)
    /// No notification intents for this chat until `unmute`.
    case mute(chatID: String)
    case unmute(chatID: String)
    /// An owner creates a channel served by these chat relays (members running in relay role),
    /// with `coOwners` who may post as the channel too.
    case createChannel(relays: [PublicKey], name: String, description: String, welcomeMessage: String, coOwners: [PublicKey] = [])
    /// The owner asks the channel's failed relays again.
    case retryChannel(channelID: String)
    /// Owners: ping every relay of the channel and record which answer in time (the relay test button).
    case testChannelRelays(channelID: String)
    /// A subscriber joins by link, asking each of its relays.
    case joinChannel(ChannelLink)
    /// The subscriber asks the relays that failed again.
    case retryJoinChannel(channelID: String)
    /// An owner posts as the channel (refused for subscribers).
    case broadcast(channelID: String, text: String)
    /// A subscriber leaves a channel: its relays remove it from their fan-outs and it sees the
    /// channel no more.
    case leaveChannel(channelID: String)
    /// An owner deletes a channel: relays stop serving it and tell its subscribers, who keep what was
    /// said; nobody can post any more.
    case deleteChannel(channelID: String)
}

/// A picture a user picked: its bytes and MIME type. Printed (and traced, `traceText`) by size and
/// type, so that a line stays short however large the picture.
package struct ImageFile: Hashable, Sendable, Codable, CustomStringConvertible {
    package var bytes: [UInt8]
    package var mimeType: String

    package init(bytes: [UInt8], mimeType: String) {
        self.bytes = bytes
        self.mimeType = mimeType
    }

    package var description: String { "\(bytes.count) bytes \(mimeType)" }
}

/// What to do when some invitees' key packages cannot be used.
package enum PartialFailurePolicy: String, Hashable, Sendable, Codable {
    /// Create the group with the others; report each failed peer (the default).
    case proceed
    /// Create nothing; report every failed peer.
    case abort
    /// Let the user decide: nothing is created or committed yet; the action waits as a pending
    /// decision (`AppState.pendingDecisions`) until `AppAction.decide`.
    case ask
}

/// The user's answer to a pending decision.
package enum DecisionChoice: String, Hashable, Sendable, Codable, CaseIterable {
    /// Look the failed invitees' key packages up again; the decision stays pending if some still fail.
    case retry
    /// Carry the action out with the invitees whose key packages were usable; the others are
    /// reported as failed peers.
    case proceed
    /// Drop the action: nothing is created or committed, nobody reported.
    case cancel
}

/// A timer the core asked for; it comes back as `CoreInput.timer` with the same token.
package struct TimerToken: Hashable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: UInt64
    package init(_ rawValue: UInt64) { self.rawValue = rawValue }
    package var description: String { "t\(rawValue)" }
}

/// Everything that can happen to a core.
package enum CoreInput: Hashable, Sendable {
    /// The member comes online: publish profile, relay lists and key package; subscribe.
    case start
    case action(AppAction)
    /// A frame from a relay, already decoded.
    case relay(url: String, message: RelayMessage)
    /// A frame from a relay as text: the core decodes it, so a frame whose event fails its id or
    /// signature check still reaches the request that asked for it and is classified there.
    case relayFrame(url: String, frame: String)
    /// The relay connection could not be used (down, partitioned): pending requests to it fail.
    case relayUnreachable(url: String)
    /// The relay can be reached again (the platform's reachability signal): resubscribe now.
    case relayReachable(url: String)
    case timer(TimerToken)
    /// The blob store's answer to `CoreEffect.fetchBlob`: the blob stored under `hash`, or nil when
    /// the store has none.
    case blob(hash: String, bytes: [UInt8]?)
}

/// What the core asks its host to do.
package enum CoreEffect: Hashable, Sendable {
    /// Send a client frame to a relay.
    case send(url: String, message: ClientMessage)
    /// Deliver `.timer(token)` after `milliseconds` of virtual time.
    case startTimer(TimerToken, milliseconds: UInt64)
    /// Forget a timer started earlier and not fired yet: its `.timer` input must never come.
    /// (A watch for a publish's OK ends this way when the OK arrives, so that a run where every
    /// OK comes in time is the same as one without watches.)
    case cancelTimer(TimerToken)
    /// Store a blob in the group-image blob store (Blossom-like), which names it by its SHA-256.
    case uploadBlob([UInt8])
    /// Fetch the blob whose SHA-256 is `hash` (lowercase hex); it comes back as `CoreInput.blob`.
    case fetchBlob(hash: String)
    /// The state changed.
    case update(AppUpdate)
    /// A decision worth a line in the host's trace (merge, clear, welcome sent, proposal left to
    /// an admin…); it changes nothing by itself.
    case note(String)
}
