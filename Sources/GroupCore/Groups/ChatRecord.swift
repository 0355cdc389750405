import EngineInterface
import Nostr

/// What the core remembers about one group, refreshed from the engine after every commit.
struct ChatRecord: Sendable, Codable {
    /// hex of the Marmot group id (the `h` tag); stable across epochs.
    let chatID: String
    let mlsGroupID: MLSGroupID
    var name: String
    var description: String
    var members: [PublicKey]
    var admins: [PublicKey]
    var relays: [String]
    var epoch: UInt64
    /// Sorted by created_at, ties by id.
    var messages: [ChatMessage] = []
    /// Messages that arrived since the chat was last read (what the unread count counts before
    /// the visibility rule hides some: `GroupCore.unreadCount`).
    var unread = 0
    /// The rumor ids of those messages, nil while none (and in states persisted before they were
    /// kept, whose count then stays as it was).
    var unreadIDs: [String]?
    var isRemoved = false
    /// The role table's log (Roles/RoleBook.swift).
    var roles = RoleBook()
    /// The group image the group data names, and where its blob stands (Groups/GroupCore+Image.swift).
    var image: GroupImage?
    var imageStatus: ChatImage.Status = .loading
    /// The addresses (`nostr_group_id` hex) the group moved to after `chatID`, oldest first; nil
    /// while it never moved (current profile, component 0x8004). The chat is subscribed at all of
    /// them: a member that has not followed a rotation yet still publishes at an older one.
    var routingIDs: [String]?
    /// Set when the engine lost the group's durable record or cannot read it (restart-matrix
    /// boundary 8; Persistence/GroupCore+Unrecoverable.swift); nil for every usable group.
    var unrecoverable: UnrecoverableChat?

    /// Every address this chat's kind-445 events may carry in their `h` tag.
    var addresses: [String] { [chatID] + (routingIDs ?? []) }

    init(snapshot: GroupSnapshot, members: [PublicKey], relays: [String]) {
        chatID = snapshot.nostrGroupID
        mlsGroupID = snapshot.mlsGroupID
        name = snapshot.name
        description = snapshot.description
        self.members = members
        admins = snapshot.admins
        self.relays = relays
        epoch = snapshot.epoch
        isRemoved = snapshot.state.isEnded
    }

    var isGroup: Bool { members.count > 2 || name != CoreConfiguration.directChatName }

    /// Inserts a message in created_at/id order; false when a message with its id is already there.
    mutating func insert(_ message: ChatMessage) -> Bool {
        guard !messages.contains(where: { $0.id == message.id }) else { return false }
        let index = messages.firstIndex { ($0.timestamp, $0.id) > (message.timestamp, message.id) } ?? messages.endIndex
        messages.insert(message, at: index)
        return true
    }
}
