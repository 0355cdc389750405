/// What the user is shown and was told: the state last published, and the records the next one
/// is made from (State/GroupCore+State.swift) beside the chats themselves.
struct UIBook: Sendable {
    /// The last state the UI was given (its `rev` goes on from here).
    var published = AppState()
    var currentChatID: String?
    /// The chat the UI was routed to (`AppState.route`); nil is the chat list. Persisted with the
    /// published state, so a restarted core routes where it did.
    var routeChatID: String?
    /// How much of the open chat's history its view shows (State/OpenChatPage.swift).
    var openPage = OpenChatPage(size: ChatViewState.defaultPageSize)
    /// Chats whose removal or leave we told the UI about.
    var chatEvents: [ChatEvent] = []
    var errors: [AppError] = []
    var failedPeers: [FailedPeer] = []
    var rejections: [Rejection] = []
    /// Our join-by-link requests, in the order we made them (Roles/GroupCore+Links.swift).
    var joinResults: [JoinResult] = []
    /// Groups opened from links and not joined yet (Roles/GroupCore+PreparedGroups.swift); not persisted.
    var prepared: [PreparedGroup] = []
    /// Operations under way, by key (a commit waiting for its OK, a lookup).
    var busy: [String: BusyOperation] = [:]
    /// Notification intents raised so far and muted chats (see Notifications/).
    var notifications = NotificationLog()
    /// The actions the user started and how each ended (State/ActionBook.swift); not persisted.
    var actions = ActionBook()
}
