import Nostr

extension GroupCore {
    /// An event that waits in the outbox (chat message, control message, welcome) could not be
    /// handed to `url` (unreachable): instead of counting as a refusal, it waits there, so that a
    /// member that was offline when it wrote still delivers what it wrote. True when it is now held.
    func holdForReconnect(eventID: String, url: String) -> Bool {
        guard let purpose = traffic.publishes[eventID], var outstanding = purpose.outstanding, outstanding.remove(url) != nil,
            let event = traffic.outbox.event(eventID)
        else { return false }
        traffic.publishes[eventID] = purpose.waiting(for: outstanding)
        traffic.outbox.hold(event, for: url)
        note("queued \(Self.outboxLabel(purpose, eventID)) for \(url)")
        return true
    }

    /// `url` can be reached again: what waited for it goes out now, awaiting its OK like a first send.
    func flushOutbox(to url: String) {
        guard traffic.outbox.isWaiting(for: url) else { return }
        for event in traffic.outbox.take(for: url) {
            guard let purpose = traffic.publishes[event.id.hex], var outstanding = purpose.outstanding else { continue }
            outstanding.insert(url)
            traffic.publishes[event.id.hex] = purpose.waiting(for: outstanding)
            note("sending queued \(Self.outboxLabel(purpose, event.id.hex)) to \(url)")
            emit(.send(url: url, message: .event(event)))
        }
    }

    /// Every relay refused a chat or control message (`OK false`: `blocked:`, `rate-limited:`…).
    /// Like a welcome, it is sent again, as the same signed event, after 2, 4, 8… s
    /// (`refusedPublishRetryAttempts` times) before it counts as failed: a refusal that was
    /// passing (a relay's spam filter, a restart) must not lose what a member wrote, or leave a
    /// role change on its author's side only. True when a retry is scheduled.
    func retryAfterRefusal(_ eventID: String) -> Bool {
        guard configuration.behaviour.recovery.refusedPublishes, let purpose = traffic.publishes[eventID],
            traffic.outbox.event(eventID) != nil,
            !traffic.outbox.relays(of: eventID).isEmpty
        else { return false }
        let retries = traffic.outbox.countRetry(eventID)
        guard retries < configuration.behaviour.refusedPublishRetryAttempts else { return false }
        note("\(Self.outboxLabel(purpose, eventID)) refused everywhere; retry \(retries + 1)")
        _ = startTimer(.publishRetry(eventID: eventID), milliseconds: 2_000 << UInt64(retries))
        return true
    }

    func retryPublish(_ eventID: String) {
        guard let purpose = traffic.publishes[eventID], let event = traffic.outbox.event(eventID) else { return }
        let relays = traffic.outbox.relays(of: eventID)
        traffic.publishes[eventID] = purpose.waiting(for: Set(relays))
        note("sending \(Self.outboxLabel(purpose, eventID)) again")
        send(.event(event), to: relays)
    }

    /// How notes name a waiting event (chat messages by their rumor id, as they always were).
    static func outboxLabel(_ purpose: PublishPurpose, _ eventID: String) -> String {
        switch purpose {
        case .message(_, let messageID, _): "message \(messageID.prefix(8))"
        case .control: "control \(eventID.prefix(8))"
        case .welcome(let invitee, _, _, _): "welcome \(eventID.prefix(8)) to \(invitee.hex.prefix(8))"
        case .commit: "commit \(eventID.prefix(8))"
        case .proposal: "leave proposal \(eventID.prefix(8))"
        }
    }
}
