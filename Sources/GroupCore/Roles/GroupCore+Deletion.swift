extension GroupCore {
    /// A member is told an owner deleted the group, as a removed member is told of its removal: a
    /// `deleted` chat event in the update that marks the chat deleted, once per chat, unless the
    /// owner deleted it silently. Not a notification intent: system events stay silent
    /// (docs/group-core.md, "Notification intents"). Judged on the folded table, so a forged
    /// deletion (refused by the permission table) tells nobody.
    func tellDeletion(in chatID: String) {
        guard let chat = chats[chatID], !channels.isFanOut(chatID) else { return }
        let view = roleView(of: chat)
        guard view.deletion != nil, view.deletionNotifies,
            !ui.chatEvents.contains(where: { $0.chatID == chatID && $0.kind == .deleted })
        else { return }
        ui.chatEvents.append(ChatEvent(chatID: chatID, kind: .deleted))
    }
}
