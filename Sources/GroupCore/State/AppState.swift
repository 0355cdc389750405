// The state a UI renders, owned by GroupCore (one-way data flow: dispatch(action) → the core
// mutates state → an AppUpdate with rev = previous + 1).
import EngineInterface
import ErrorCodes
import Nostr

/// Everything a UI shows for one member.
public struct AppState: Hashable, Sendable {
    /// Increases by exactly one with every update.
    public var rev: UInt64 = 0
    /// Chats, most recent activity first (ties by chat id).
    public var chatList: [ChatSummary] = []
    public var currentChat: ChatViewState?
    /// Operations in flight, by kind, for spinners.
    public var busy: [BusyOperation] = []
    /// Failures the UI should show; each carries a stable code.
    public var errors: [AppError] = []
    /// Peers whose key package could not be used, per chat or per failed creation.
    public var failedPeers: [FailedPeer] = []
    /// Incoming events this member refused, with the reason (for assertions).
    public var rejections: [Rejection] = []
    /// Notification intents raised so far, oldest first (the platform posts each once).
    public var notifications: [NotificationIntent] = []
    /// Channels we own or subscribe to, by name (their fan-out groups are not in `chatList`).
    public var channels: [ChannelState] = []
    /// Our join-by-link requests and where each stands.
    public var joinResults: [JoinResult] = []

    public init() {}
}

/// One row of the chat list.
public struct ChatSummary: Hashable, Sendable {
    /// The Marmot (nostr) group id in hex: stable across epochs and engines.
    public var chatID: String
    /// More than two members, or a name other than the 1:1 default.
    public var isGroup: Bool
    public var groupName: String
    public var members: [MemberInfo]
    public var lastMessage: String?
    public var lastMessageAt: UInt64?
    public var unreadCount: Int
    /// The MLS epoch this member is in (lets tests check that nobody runs ahead).
    public var epoch: UInt64
    /// The member was removed or left: history is kept, sending is refused.
    public var isRemoved: Bool
    /// Muted chats raise no notification intents.
    public var isMuted = false
    /// Each member's role (empty until the role table is known: a joiner waits for its snapshot).
    public var roles: [PublicKey: Role] = [:]
    /// Members whose messages are hidden for everyone.
    public var blocked: Set<PublicKey> = []
    /// Rumor ids of messages kept but hidden (deleted, blocked sender, sender not allowed to send).
    public var hiddenMessageIDs: Set<String> = []
    /// Whether any role change, deletion or block has been seen in this chat.
    public var hasRoleChanges = false
    /// The group link (admins see it; `get` on a group without one is nil).
    public var link: GroupLinkState?
    /// Join requests waiting for an admin's decision.
    public var pendingJoins: [PublicKey] = []
    /// Set when an owner deleted the group.
    public var deletion: GroupDeletion?
    /// Each member's invitation status (invited → accepted → connected).
    public var memberStatus: [PublicKey: MemberStatus] = [:]
    /// The owner's preferences, once set (the welcome message among them is shown to joiners).
    public var preferences: GroupPreferences?
}

/// A member as a chat shows it.
public struct MemberInfo: Hashable, Sendable {
    public var pubkey: PublicKey
    /// The kind-0 profile name, when known.
    public var name: String?
    public var isAdmin: Bool
}

/// The open chat.
public struct ChatViewState: Hashable, Sendable {
    public var chatID: String
    public var groupName: String
    public var members: [MemberInfo]
    public var isAdmin: Bool
    public var epoch: UInt64
    /// Ordered by created_at, ties by message id.
    public var messages: [ChatMessage]
    public var canLoadOlder: Bool
}

/// A message in a chat view.
public struct ChatMessage: Hashable, Sendable {
    public enum Delivery: String, Hashable, Sendable {
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
    public var id: String
    public var senderPubkey: PublicKey
    public var senderName: String?
    public var content: String
    public var timestamp: UInt64
    public var isMine: Bool
    public var delivery: Delivery
}

/// An operation in flight.
public struct BusyOperation: Hashable, Sendable {
    public var kind: String
    public var chatID: String?
}

/// A failure shown to the user.
public struct AppError: Hashable, Sendable {
    public var code: CoreError.Code
    public var message: String
    public var chatID: String?
    /// The engine's own code when `code` is `.engine` (e.g. `not_admin`, `admin_cannot_leave`).
    public var engineCode: EngineError.Code?
}

/// A peer left out of a group, and why.
public struct FailedPeer: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable, CaseIterable {
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
    }
    public var pubkey: PublicKey
    public var reason: Reason
    public var detail: String
    /// The chat the peer was to join, nil when creation was aborted.
    public var chatID: String?
}

/// An incoming event this member refused.
public struct Rejection: Hashable, Sendable {
    /// The id of the event as received (the kind-445 or kind-1059 wrapper).
    public var eventID: String
    public var kind: Kind
    /// A stable reason code (engine codes such as `commit_from_non_admin`, or core codes).
    public var reason: String
    public var detail: String
}

/// One change of state, as a UI receives it.
public struct AppUpdate: Hashable, Sendable {
    public var rev: UInt64
    /// What changed, in a few words (for traces).
    public var cause: String
    public var state: AppState
}
