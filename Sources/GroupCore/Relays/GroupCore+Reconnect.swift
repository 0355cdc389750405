import Nostr

extension GroupCore {
    /// Retries after a relay is lost: 1, 2, 4, 8, 16, 32 s, then the core stops polling it until
    /// the platform says it is reachable again (or any frame from it arrives), so that a relay that
    /// stays down does not keep a member busy for ever.
    static let maximumReconnectAttempts = 6

    /// A relay we hold subscriptions on was lost (they died with the connection): try to put them
    /// back later, with backoff, so a relay that comes back up serves us again.
    func scheduleResubscription(to url: String) {
        guard configuration.behaviour.recovery.resubscribes, !standingSubscriptions(at: url).isEmpty else { return }
        let waiting = timers.running.values.contains { if case .resubscribe(url) = $0 { true } else { false } }
        guard !waiting else { return }
        let attempt = (traffic.reconnectAttempts[url] ?? -1) + 1
        traffic.reconnectAttempts[url] = attempt
        guard attempt < Self.maximumReconnectAttempts else {
            note("gave up on \(url) after \(attempt) attempts")
            return
        }
        _ = startTimer(.resubscribe(url: url), milliseconds: 1_000 << UInt64(attempt))
    }

    func resubscribe(to url: String) {
        let requests = standingSubscriptions(at: url)
        note("resubscribing \(requests.count) subscription(s) at \(url)")
        // Through `send`, so that a group subscription's stored events wait for the EOSE and are
        // handled oldest first, as on the first subscription: after an outage the relay serves
        // what we missed newest first (NIP-01), and commits handed over in that order fail (their
        // epoch is not reached yet) and are remembered as failed by MDK and our engine alike.
        for request in requests {
            send(request, to: [url])
            if case .request(let subscription, _) = request, Self.isGroupSubscription(subscription) {
                catchUp.beginReturning(CatchUpKey(url: url, subscription: subscription.rawValue))
            }
        }
    }

    /// The platform reports the relay reachable again: start over and resubscribe at once.
    func relayReachable(_ url: String) {
        traffic.reconnectAttempts[url] = nil
        flushOutbox(to: url)
        guard !standingSubscriptions(at: url).isEmpty else { return }
        resubscribe(to: url)
    }

    /// The relay answered something: it is reachable, so the next loss starts a fresh backoff.
    func heardFrom(_ url: String) {
        traffic.reconnectAttempts[url] = nil
        flushOutbox(to: url)
    }

    /// The subscriptions a member keeps open on `url` for as long as it runs.
    func standingSubscriptions(at url: String) -> [ClientMessage] {
        var requests: [ClientMessage] = []
        if configuration.discoveryRelays.contains(url) {
            requests.append(.request(subscription: Self.directorySubscription, filters: [Self.directoryFilter]))
        }
        if configuration.inboxRelays.contains(url) {
            requests.append(.request(subscription: Self.inboxSubscription, filters: [inboxFilter]))
        }
        for chat in chats.values.sorted(by: { $0.chatID < $1.chatID }) where !chat.isRemoved && chat.relays.contains(url) {
            requests.append(.request(subscription: Self.groupSubscription(chat.chatID), filters: [groupFilter(chat.chatID)]))
        }
        return requests
    }
}
