// Pagination of the open chat: its view shows the newest messages a page at a time, and
// `canLoadOlder` says whether older ones are kept (the chat record holds the whole history; pages
// only bound what a UI renders at once).

/// The open chat's window: `pages` pages of `size` messages, newest first.
struct OpenChatPage: Sendable, Codable {
    let size: Int
    var pages = 1

    /// A page holds at least one message, so that a view always moves.
    init(size: Int) { self.size = max(1, size) }

    /// How many of the newest messages the view shows.
    var shown: Int { size.multipliedReportingOverflow(by: pages).overflow ? Int.max : size * pages }
}

extension ChatViewState {
    /// The page size when the platform names none.
    package static let defaultPageSize = 50
}

extension GroupCore {
    /// The view of the open chat: its newest `openPage.shown` messages in `created_at` order, and
    /// whether older ones exist.
    /// Only the messages the visibility rule shows (State/Visibility.swift) are paged.
    func view(_ chat: ChatRecord) -> ChatViewState {
        let shown = ui.openPage.shown
        let messages = visibility(of: chat).shown(chat.messages, in: .openChat)
        return ChatViewState(
            chatID: chat.chatID, groupName: chat.name, members: memberInfo(chat), isAdmin: chat.admins.contains(publicKey),
            epoch: chat.epoch, messages: Array(messages.suffix(shown)), canLoadOlder: messages.count > shown
        )
    }

    /// One more page of the open chat; refused for a chat that is not open, nothing when the
    /// whole history already shows.
    func loadOlderMessages(_ chatID: String) {
        guard let chat = chats[chatID], ui.currentChatID == chatID else {
            fail(CoreError(.invalidAction, "chat \(chatID.prefix(8)) is not open"), chatID: chatID)
            return
        }
        guard visibility(of: chat).shown(chat.messages, in: .openChat).count > ui.openPage.shown else { return }
        ui.openPage.pages += 1
        changed("older messages in \(chatID.prefix(8))")
    }
}
