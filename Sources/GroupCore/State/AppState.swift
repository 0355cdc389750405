// The state a UI renders, owned by GroupCore (one-way data flow: dispatch(action) → the core
// mutates state → an AppUpdate with rev = previous + 1).
import EngineInterface
import ErrorCodes
import Nostr

/// Everything a UI shows for one member.
package struct AppState: Hashable, Sendable, Codable {
    /// Increases by exactly one with every update.
    package var rev: UInt64 = 0
    /// Chats, most recent activity first (ties by chat id).
    package var chatList: [ChatSummary] = []
    package var currentChat: ChatViewState?
    /// Operations in flight, by kind, for spinners.
    package var busy: [BusyOperation] = []
    /// Failures the UI should show; each carries a stable code.
    package var errors: [AppError] = []
    /// Peers whose key package could not be used, per chat or per failed creation.
    package var failedPeers: [FailedPeer] = []
    /// Actions waiting for the user to decide what to do about invitees whose key packages could
    /// not be used (`PartialFailurePolicy.ask`), oldest first.
    package var pendingDecisions: [PendingDecision] = []
    /// Incoming events this member refused, with the reason (for assertions).
    package var rejections: [Rejection] = []
    /// Notification intents raised so far, oldest first (the platform posts each once).
    package var notifications: [NotificationIntent] = []
    /// Channels we own or subscribe to, by name (their fan-out groups are not in `chatList`).
    package var channels: [ChannelState] = []
    /// Our join-by-link requests and where each stands.
    package var joinResults: [JoinResult] = []
    /// What happened to us in chats, oldest first: the UI tells a removed member so, rather than
    /// only greying the chat out (`ChatSummary.isRemoved`).
    package var chatEvents: [ChatEvent] = []
    /// Invitations waiting for our answer (`Behaviour.invitations == .ask`), oldest first; nil
    /// while there are none (so that states of members who never wait encode as before).
    package var invitations: [Invitation]? = nil
    /// Groups opened from a link and not joined yet, in the order opened; nil while there are none.
    package var preparedGroups: [PreparedGroup]? = nil
    /// Where the UI is sent (002): to the chat the user just created or opened, and back to the
    /// chat list once the user leaves, is removed from or deletes that chat.
    package var route: Route = .chatList

    package init() {}
}

/// A welcome we were sent and have not answered: the group as the welcome describes it (seed 001
/// §2: an invited member is `invited` until it accepts or declines).
package struct Invitation: Hashable, Sendable, Codable {
    package enum Status: String, Hashable, Sendable, Codable {
        /// Processed and valid, waiting for `acceptInvitation` or `declineInvitation`.
        case invited
    }
    /// The welcome rumor's id (hex): what the answer names.
    package var welcomeID: String
    /// The MLS group id (hex) the welcome is for.
    package var groupID: String
    package var groupName: String
    package var inviter: PublicKey
    /// How many members the group has, ourselves included, as the welcome's tree says.
    package var memberCount: Int
    package var status: Status
}

/// A screen of the app the core routes to.
package enum Route: Hashable, Sendable, Codable {
    case chatList
    /// The chat with this id (hex Marmot group id).
    case chat(String)
}

/// Something that happened to us in a chat.
package struct ChatEvent: Hashable, Sendable, Codable {
    package enum Kind: String, Hashable, Sendable, Codable {
        /// An admin's commit took us out.
        case removed
        /// We asked to leave, and the commit took us out.
        case left
        /// An owner deleted the group, and asked that members be told (`delete-group` without
        /// `"notify": false`).
        case deleted
        /// An admin disbanded the group (current profile: lifecycle component 0x800c): the chat
        /// ended for everyone, ourselves included when we disbanded it.
        case disbanded
    }
    package var chatID: String
    package var kind: Kind
}

/// One row of the chat list.
package struct ChatSummary: Hashable, Sendable, Codable {
    /// The Marmot (nostr) group id in hex: stable across epochs and engines.
    package var chatID: String
    /// The addresses the group moved to after `chatID` (a routing rotation, current profile), oldest
    /// first; nil while it never moved.
    package var routingIDs: [String]? = nil
    /// More than two members, or a name other than the 1:1 default.
    package var isGroup: Bool
    package var groupName: String
    /// Every member except ourselves (the product's member list), in the group's order.
    package var members: [MemberInfo]
    /// Our own entry while the group's member list, as last read, holds us (a removed member's
    /// list is the one it last saw, so it still does).
    package var me: MemberInfo?
    /// Whether we are a Marmot admin of the group (MIP-01 `admin_pubkeys`).
    package var isAdmin: Bool
    /// The group's description (MIP-01 group data).
    package var description: String
    /// The newest message's text and `created_at` (messages are kept in `created_at` order, ties by
    /// id), nil while the chat has none; the chat list is ordered by `lastMessageAt`.
    package var lastMessage: String?
    package var lastMessageAt: UInt64?
    package var unreadCount: Int
    /// The MLS epoch this member is in (lets tests check that nobody runs ahead).
    package var epoch: UInt64
    /// The member was removed or left: history is kept, sending is refused.
    package var isRemoved: Bool
    /// Muted chats raise no notification intents.
    package var isMuted = false
    /// Each member's role (empty until the role table is known: a joiner waits for its snapshot).
    package var roles: [PublicKey: Role] = [:]
    /// Members whose messages are hidden for everyone.
    package var blocked: Set<PublicKey> = []
    /// Rumor ids of messages kept but hidden (deleted, blocked sender, sender not allowed to send).
    package var hiddenMessageIDs: Set<String> = []
    /// Whether any role change, deletion or block has been seen in this chat.
    package var hasRoleChanges = false
    /// The group link (admins see it; `get` on a group without one is nil).
    package var link: GroupLinkState?
    /// Join requests waiting for an admin's decision.
    package var pendingJoins: [PublicKey] = []
    /// Set when an owner deleted the group.
    package var deletion: GroupDeletion?
    /// Each member's invitation status (invited → accepted → connected).
    package var memberStatus: [PublicKey: MemberStatus] = [:]
    /// The owner's preferences, once set (the welcome message among them is shown to joiners).
    package var preferences: GroupPreferences?
    /// Messages said before we joined, shown from the adding admin's history packet, in
    /// `created_at` order (they are in the chat's messages too, marked `isHistory`).
    package var historyMessages: [ChatMessage] = []
    /// The group image, once the group data names one (MIP-01).
    package var image: ChatImage?
    /// Why the group is unrecoverable (its durable record is missing or corrupt: restart-matrix
    /// boundary 8); nil while it is usable. Such a chat keeps what it showed and takes no input.
    package var unrecoverable: String? = nil
}

/// The group's picture as a chat shows it: the blob it names and whether that blob was found and
/// opened. Only a verified picture is shown; every other status says why not.
package struct ChatImage: Hashable, Sendable, Codable {
    package enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// Asked of the blob store, no answer yet.
        case loading
        /// Downloaded, its SHA-256 is the group data's hash, and it opened with the group's key.
        case verified
        /// The blob store has no blob under the hash.
        case missing
        /// The blob's SHA-256 is not the hash the group data names (changed in the store or on the way).
        case tampered
        /// The hash matched but the blob does not open with the group data's key and nonce.
        case undecryptable
    }
    /// SHA-256 of the encrypted blob, lowercase hex (the blob's address).
    package var hash: String
    package var status: Status
}

extension ChatSummary {
    /// The whole member list: the others and, while the list holds us, ourselves last.
    package var roster: [MemberInfo] { members + [me].compactMap { $0 } }
}

/// A member as a chat shows it.
package struct MemberInfo: Hashable, Sendable, Codable {
    package var pubkey: PublicKey
    /// The kind-0 profile name, when known.
    package var name: String?
    package var isAdmin: Bool
    /// The kind-0 profile's `picture` URL, when its profile names one (nil is left out when
    /// encoded, so states of members without pictures keep their bytes).
    package var picture: String? = nil

    /// The member's key as a user reads and shares it (NIP-19 `npub1…`).
    package var npub: String { pubkey.npub }
}

/// The open chat.
package struct ChatViewState: Hashable, Sendable, Codable {
    package var chatID: String
    package var groupName: String
    package var members: [MemberInfo]
    package var isAdmin: Bool
    package var epoch: UInt64
    /// The newest page(s) of the history, ordered by created_at, ties by message id.
    package var messages: [ChatMessage]
    /// Older messages exist than the view shows (`AppAction.loadOlderMessages` shows a page more).
    package var canLoadOlder: Bool
}

/// A message in a chat view.
package struct ChatMessage: Hashable, Sendable, Codable {
    package enum Delivery: String, Hashable, Sendable, Codable {
        /// Ours, handed to relays, no accepting OK yet.
        case pending
        /// Ours, accepted by at least one relay.
        case sent
        /// Ours, refused by every relay.
        case failed
        /// Someone else's.
        case received
    }
    /// The inner rumor id.
    package var id: String
    package var senderPubkey: PublicKey
    package var senderName: String?
    package var content: String
    package var timestamp: UInt64
    package var isMine: Bool
    package var delivery: Delivery
    /// Said before we joined and shown from the adding admin's history packet (never notified);
    /// false once the same message also came in one of our own epochs.
    package var isHistory = false
}

/// An operation in flight.
package struct BusyOperation: Hashable, Sendable, Codable {
    package var kind: String
    package var chatID: String?
}

/// A failure shown to the user.
package struct AppError: Hashable, Sendable, Codable {
    package var code: CoreError.Code
    package var message: String
    package var chatID: String?
    /// The engine's own code when `code` is `.engine` (e.g. `not_admin`, `admin_cannot_leave`).
    package var engineCode: EngineError.Code?
}

/// A peer left out of a group, and why.
package struct FailedPeer: Hashable, Sendable, Codable {
    package enum Reason: String, Hashable, Sendable, Codable, CaseIterable {
        case noKeyPackage = "no_key_package"
        case relayDown = "relay_down"
        case invalidSignature = "invalid_signature"
        case invalidKeyPackage = "invalid_key_package"
        case wrongCiphersuite = "wrong_ciphersuite"
        case missingExtensions = "missing_extensions"
        case expired = "expired"
        case timeout = "timeout"
        /// Its welcome could not fit the gift-wrap path (GroupCore+Invitations.swift).
        case welcomeTooLarge = "welcome_too_large"
        /// Its key package is of the other Marmot profile (the engine's `profile_mismatch`).
        case profileMismatch = "profile_mismatch"
        /// Added by a commit that stands, but its welcome reached none of its inbox relays after
        /// every retry (mdk#1706: the outcome is per invitee, not one flat failure).
        case welcomeUndelivered = "welcome_undelivered"
    }
    package var pubkey: PublicKey
    package var reason: Reason
    package var detail: String
    /// The chat the peer was to join, nil when creation was aborted.
    package var chatID: String?
}

/// An action left waiting for the user because some invitees' key packages could not be used
/// (MIP-00 partial failure, `PartialFailurePolicy.ask`).
package struct PendingDecision: Hashable, Sendable, Codable {
    package enum Action: Hashable, Sendable, Codable {
        case createGroup(name: String)
        case addMembers(chatID: String)
    }
    /// Names the decision in `AppAction.decide`.
    package var id: String
    package var action: Action
    /// Invitees whose key packages are usable, in the order the action named them.
    package var ready: [PublicKey]
    /// Invitees whose key packages are not, with the reasons of the latest lookup.
    package var failed: [FailedPeer]
    /// A retry's lookup is under way (deciding again waits for it: `core.busy`).
    package var retrying: Bool
}

/// An incoming event this member refused.
package struct Rejection: Hashable, Sendable, Codable {
    /// The id of the event as received (the kind-445 or kind-1059 wrapper).
    package var eventID: String
    package var kind: Kind
    /// A stable reason code (engine codes such as `commit_from_non_admin`, or core codes).
    package var reason: String
    package var detail: String
}

/// One change of state, as a UI receives it.
package struct AppUpdate: Hashable, Sendable, Codable {
    package var rev: UInt64
    /// What changed, in a few words (for traces).
    package var cause: String
    package var state: AppState
}

extension ChatSummary {
    /// Every address this chat's events may carry in their `h` tag: `chatID` and the ones it moved to.
    package var addresses: [String] { [chatID] + (routingIDs ?? []) }
}
