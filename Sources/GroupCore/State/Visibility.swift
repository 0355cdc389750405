// One visibility rule for every place a message can show (docs/group-core.md, "Visibility"). The
// role book's fold decides, per message, whether it is hidden and why; every derived view (the open
// chat, the chat list's preview line and order, unread counts, notifications, the history sent to
// joiners) asks `Visibility` and keeps no filter of its own, so a message hidden in one place is
// hidden in all of them.

/// Why a message kept in a chat is shown nowhere. The first reason the fold meets wins (a message
/// of a blocked sender written after the group's deletion reads `deletedGroup`).
package enum HiddenReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// Written after a valid delete-group (by a member who had not heard of it yet).
    case deletedGroup = "deleted-group"
    /// Every message of a group deleted without `keep-history`.
    case historyDropped = "history-dropped"
    /// Deleted by its author or a moderator (`delete` control).
    case deletedMessage = "deleted-message"
    /// Its sender is blocked.
    case blockedSender = "blocked-sender"
    /// Its sender was removed with its messages (`purge`).
    case purgedSender = "purged-sender"
    /// A voice message or file while the preferences forbid it, or media from a rank that may not send.
    case forbiddenMedia = "forbidden-media"
    /// Its sender's rank may not send (or react) at its place in the order. A change ordered before
    /// the message but read after it (late, reordered, caught up) invalidates a message that was
    /// shown: the fold judges it again, and every view drops it at once.
    case senderNotAllowed = "sender-not-allowed"
    /// A disappearing message whose `at + disappear-after` has passed.
    case expired
}

/// The places a message shows. Each derived view names itself when it asks the rule.
package enum MessageView: String, Hashable, Sendable, Codable, CaseIterable {
    /// The open chat's messages (`ChatViewState.messages`).
    case openChat = "open-chat"
    /// The chat list's preview line (`ChatSummary.lastMessage`, `lastMessageAt`).
    case preview
    /// The chat list's order (newest shown message first).
    case chatOrder = "chat-order"
    /// The unread count (`ChatSummary.unreadCount`) and the badge made of it.
    case unread
    /// Notification intents.
    case notifications
    /// The history an admin sends joiners (History/).
    case joinerHistory = "joiner-history"
}

/// The rule: which messages of one chat are hidden, and why.
package struct Visibility: Sendable {
    /// Hidden messages by rumor id.
    package let reasons: [String: HiddenReason]
    /// For tests only (the twin of the visibility matrix): views that skip the rule and show
    /// everything. Shipped configurations leave it empty.
    let bypassed: Set<MessageView>

    /// Why `id` is hidden, nil while it is shown.
    package func reason(for id: String) -> HiddenReason? { reasons[id] }

    /// Whether `id` shows in `view`.
    package func isShown(_ id: String, in view: MessageView) -> Bool {
        bypassed.contains(view) || reasons[id] == nil
    }

    /// The messages of `messages` that show in `view`, in their order.
    func shown(_ messages: [ChatMessage], in view: MessageView) -> [ChatMessage] {
        messages.filter { isShown($0.id, in: view) }
    }
}

extension GroupCore {
    /// The rule for `chat` as its role book stands now (`view`: a fold already made, to reuse it).
    func visibility(of chat: ChatRecord, view: RoleView? = nil) -> Visibility {
        let roles = view ?? roleView(of: chat)
        var reasons = roles.hiddenReasons
        if roles.deletion == .historyDropped {
            for message in chat.messages where reasons[message.id] == nil { reasons[message.id] = .historyDropped }
        }
        return Visibility(reasons: reasons, bypassed: configuration.behaviour.bypassedVisibilityViews)
    }

    /// The unread count as shown: messages that arrived since the chat was last read, less those
    /// the rule hides (counted on arrival, hidden since or on arrival).
    func unreadCount(of chat: ChatRecord, visibility: Visibility) -> Int {
        let hidden = (chat.unreadIDs ?? []).filter { !visibility.isShown($0, in: .unread) }.count
        return max(0, chat.unread - hidden)
    }
}
