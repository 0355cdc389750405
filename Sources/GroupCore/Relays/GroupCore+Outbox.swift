import Nostr

extension GroupCore {
    /// A chat message could not be handed to `url` (unreachable): instead of counting as a refusal,
    /// it waits in the outbox and stays pending, so that a member that was offline when it wrote
    /// still delivers what it wrote. True when the event was a message publish and is now held.
    func holdForReconnect(eventID: String, url: String) -> Bool {
        guard case .message(let chatID, let messageID, var outstanding) = publishes[eventID],
            outstanding.remove(url) != nil, let event = outbox.event(eventID)
        else { return false }
        publishes[eventID] = .message(chatID: chatID, messageID: messageID, outstanding: outstanding)
        outbox.hold(event, for: url)
        note("queued message \(messageID.prefix(8)) for \(url)")
        return true
    }

    /// `url` can be reached again: what waited for it goes out now, awaiting its OK like a first send.
    func flushOutbox(to url: String) {
        guard outbox.isWaiting(for: url) else { return }
        for event in outbox.take(for: url) {
            guard case .message(let chatID, let messageID, var outstanding) = publishes[event.id.hex] else { continue }
            outstanding.insert(url)
            publishes[event.id.hex] = .message(chatID: chatID, messageID: messageID, outstanding: outstanding)
            note("sending queued message \(messageID.prefix(8)) to \(url)")
            emit(.send(url: url, message: .event(event)))
        }
    }
}
