import Nostr

extension GroupCore {
    /// Raises the intent for a message just inserted into `chat`: only chat messages (kind 9) alert;
    /// everything else an application message can carry (reactions, deletions) stays silent.
    func notifyIfNeeded(_ message: ChatMessage, kind: Kind, in chat: ChatRecord) {
        guard kind == .chatMessage else { return }
        let context: NotificationRules.Context = chat.isGroup ? .group(name: chat.name) : .direct
        guard
            var intent = NotificationRules.intent(
                for: message, chatID: chat.chatID, context: context, muted: ui.notifications.muted.contains(chat.chatID),
                badge: unreadBadge())
        else { return }
        if chat.imageStatus == .verified { intent.groupImage = chat.image?.hashHex }
        ui.notifications.intents.append(intent)
        changed("notify \(message.id.prefix(8))")
    }

    /// The app badge: unread messages over the chats the chat list shows (chat relays show none,
    /// fan-out groups are not chats). A sum, so the dictionary's order does not matter. Channels keep
    /// no unread count, so a broadcast does not raise it.
    func unreadBadge() -> Int {
        guard chatRelayConduct == nil else { return 0 }
        return chats.values.reduce(0) { $0 + (channels.isFanOut($1.chatID) ? 0 : unreadCount(of: $1, visibility: visibility(of: $1))) }
    }

    /// Mutes or unmutes a chat or a channel we subscribe to: muted chats keep counting unread
    /// messages but raise no intents.
    func setMuted(_ chatID: String, _ muted: Bool) {
        guard chats[chatID] != nil || channels.records[chatID] != nil else {
            fail(CoreError(.unknownChat, "no chat \(chatID)"), chatID: chatID)
            return
        }
        let changedNow = muted ? ui.notifications.muted.insert(chatID).inserted : ui.notifications.muted.remove(chatID) != nil
        if changedNow { changed("\(muted ? "mute" : "unmute") \(chatID.prefix(8))") }
    }
}
