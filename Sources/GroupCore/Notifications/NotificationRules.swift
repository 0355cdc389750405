/// The product's notification rules as a pure function, so that each rule is testable on its own:
/// one intent per incoming chat message that should alert, none for our own messages, for system
/// events (they never reach here: commits and proposals are not chat messages) or for muted chats.
package enum NotificationRules {
    /// How many characters of the text a body keeps before "..." is appended.
    package static let bodyLimit = 100

    /// Where a message arrived, as far as its notification is concerned.
    package enum Context: Hashable, Sendable {
        /// A group chat: the title names the sender and the group.
        case group(name: String)
        /// A 1:1 chat: the title is the sender alone.
        case direct
        /// A channel broadcast: the title is the channel, whoever of its owners wrote it.
        case channel(name: String)
    }

    /// The body of a notification: the text itself, or its first `bodyLimit` characters and "...".
    package static func body(of text: String) -> String {
        text.count > bodyLimit ? String(text.prefix(bodyLimit)) + "..." : text
    }

    /// What a title says for a group without a name (the product story: "Bob in Group Chat", never
    /// "Bob in ").
    package static let unnamedGroupTitle = "Group Chat"
    /// What a title says for a sender we know no profile name of (the product story).
    package static let unknownSenderName = "Someone"

    /// The title of a notification from `senderName` in `context`; an empty sender or group name
    /// falls back to `unknownSenderName` / `unnamedGroupTitle`.
    package static func title(senderName: String, context: Context) -> String {
        let senderName = senderName.isEmpty ? unknownSenderName : senderName
        return switch context {
        case .group(let name): "\(senderName) in \(name.isEmpty ? unnamedGroupTitle : name)"
        case .direct: senderName
        case .channel(let name): name
        }
    }

    /// The sound an alerting notification plays (the platform's default).
    package static let defaultSound = "default"

    /// The sound for a chat: the default one, none when the chat is muted.
    package static func sound(muted: Bool) -> String? { muted ? nil : defaultSound }

    /// The intent for one message, or nil when it must not alert (ours, or a muted chat); `badge`
    /// is the unread count to show on the app icon.
    package static func intent(
        for message: ChatMessage, chatID: String, context: Context, muted: Bool, badge: Int
    ) -> NotificationIntent? {
        guard !message.isMine, !muted else { return nil }
        // A sender without a known profile name is "Someone", not a key prefix nobody can read.
        let sender = message.senderName ?? unknownSenderName
        let isGroup = if case .direct = context { false } else { true }
        return NotificationIntent(
            title: title(senderName: sender, context: context), body: body(of: message.content), threadID: chatID,
            sound: sound(muted: muted), badge: badge,
            payload: NotificationPayload(
                chatID: chatID, messageID: message.id, senderID: message.senderPubkey.hex, isGroup: isGroup,
                timestamp: message.timestamp))
    }
}
