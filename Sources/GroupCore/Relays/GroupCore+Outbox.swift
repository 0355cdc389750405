import Nostr

extension GroupCore {
    /// An event that waits in the outbox (chat message, control message, welcome) could not be
    /// handed to `url` (unreachable): instead of counting as a refusal, it waits there, so that a
    /// member that was offline when it wrote still delivers what it wrote. True when it is now held.
    func holdForReconnect(eventID: String, url: String) -> Bool {
        guard let purpose = publishes[eventID], var outstanding = purpose.outstanding, outstanding.remove(url) != nil,
            let event = outbox.event(eventID)
        else { return false }
        publishes[eventID] = purpose.waiting(for: outstanding)
        outbox.hold(event, for: url)
        note("queued \(Self.outboxLabel(purpose, eventID)) for \(url)")
        return true
    }

    /// `url` can be reached again: what waited for it goes out now, awaiting its OK like a first send.
    func flushOutbox(to url: String) {
        guard outbox.isWaiting(for: url) else { return }
        for event in outbox.take(for: url) {
            guard let purpose = publishes[event.id.hex], var outstanding = purpose.outstanding else { continue }
            outstanding.insert(url)
            publishes[event.id.hex] = purpose.waiting(for: outstanding)
            note("sending queued \(Self.outboxLabel(purpose, event.id.hex)) to \(url)")
            emit(.send(url: url, message: .event(event)))
        }
    }

    /// How notes name a waiting event (chat messages by their rumor id, as they always were).
    private static func outboxLabel(_ purpose: PublishPurpose, _ eventID: String) -> String {
        switch purpose {
        case .message(_, let messageID, _): "message \(messageID.prefix(8))"
        case .control: "control \(eventID.prefix(8))"
        case .welcome(let invitee, _, _, _): "welcome \(eventID.prefix(8)) to \(invitee.hex.prefix(8))"
        case .commit: "commit \(eventID.prefix(8))"
        }
    }
}
