// Notification intents: what the platform should post for an incoming message. The core decides
// (who, what text, which thread); posting is the platform's job, so the core only records intents.

/// One notification the platform should show.
package struct NotificationIntent: Hashable, Sendable, Codable {
    /// `"{sender} in {group}"` for groups, `"{sender}"` for 1:1 chats, the channel name for broadcasts.
    package var title: String
    /// The message text, cut to `NotificationRules.bodyLimit` characters plus "..." when longer.
    package var body: String
    /// The chat id: notifications of one chat stack together.
    package var threadID: String
    /// The sound to play: `NotificationRules.defaultSound`, or nil for a silent notification
    /// (muted chats raise none at all, so every intent raised today plays the default sound).
    package var sound: String?
    /// The app badge: messages unread across the chat list when the intent was raised, this one
    /// included (the product story's "badge = unread count").
    package var badge: Int
    package var payload: NotificationPayload
    /// The group image to show beside it: its blob's SHA-256 (lowercase hex), set only while the
    /// chat's image is verified (a picture that did not check out is shown nowhere).
    package var groupImage: String?

    package init(
        title: String, body: String, threadID: String, sound: String?, badge: Int, payload: NotificationPayload,
        groupImage: String? = nil
    ) {
        self.title = title
        self.body = body
        self.threadID = threadID
        self.sound = sound
        self.badge = badge
        self.payload = payload
        self.groupImage = groupImage
    }
}

/// What a notification is about (the payload's `type`; the product story has one kind so far).
package enum NotificationType: String, Hashable, Sendable, Codable {
    case newMessage = "new_message"
}

/// What tapping a notification needs to open the right message.
package struct NotificationPayload: Hashable, Sendable, Codable {
    package var type: NotificationType = .newMessage
    package var chatID: String
    /// The inner rumor id (the id chat views use).
    package var messageID: String
    /// The sender's public key in hex.
    package var senderID: String
    package var isGroup: Bool
    /// The message's `created_at` (Unix seconds).
    package var timestamp: UInt64

    package init(chatID: String, messageID: String, senderID: String, isGroup: Bool, timestamp: UInt64) {
        self.chatID = chatID
        self.messageID = messageID
        self.senderID = senderID
        self.isGroup = isGroup
        self.timestamp = timestamp
    }
}
