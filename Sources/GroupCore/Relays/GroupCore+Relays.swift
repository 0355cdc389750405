import EngineInterface
import Nostr

extension GroupCore {
    /// Decodes a relay frame. An EVENT whose id or signature fails is not dropped silently: the
    /// request that asked for it learns why (a key-package lookup classifies it, a group or inbox
    /// subscription records a rejection).
    func receive(frame: String, from url: String) async {
        do {
            let message = try RelayMessage(json: frame)
            await receive(message, from: url)
        } catch {
            guard let outline = FrameOutline(frame), let subscription = outline.subscription,
                let event = outline.unverifiedEvent
            else {
                note("undecodable frame from \(url): \(error.code)")
                return
            }
            if let lookup = keyPackageLookups.subscriptions[subscription] {
                await offerKeyPackage(nil, invalid: (.invalidSignature, "\(error.code): \(error.reason)"), lookup: lookup)
            } else if configuration.behaviour.handsUnverifiedGroupEventsToEngine, event.kind == .groupEvent {
                // The probe: the id cannot be trusted, so it is not remembered as seen.
                note("probe: kind 445 \(event.id.hex.prefix(8)) failed \(error.code); handed to the engine unverified")
                await receiveGroupEvent(event)
            } else {
                reject(event, reason: error.code.name, detail: error.reason)
            }
        }
    }

    func receive(_ message: RelayMessage, from url: String) async {
        heardFrom(url)
        switch message {
        case .event(let subscription, let event):
            if Self.isGroupSubscription(subscription) {
                catchUp.tally(event, for: CatchUpKey(url: url, subscription: subscription.rawValue))
            }
            if event.kind == .groupEvent, Self.isGroupSubscription(subscription), ownCommitServed(event, by: url) {
                return
            }
            if event.kind == .groupEvent, Self.isGroupSubscription(subscription), await ownPublishServed(event, by: url) {
                return
            }
            if let lookup = keyPackageLookups.subscriptions[subscription.rawValue] {
                await offerKeyPackage(event, invalid: nil, lookup: lookup)
            } else if subscription == Self.directorySubscription {
                if directory.learn(event) { changed("directory \(event.pubkey.hex.prefix(8)) kind \(event.kind)") }
            } else if catchUp.buffer(event, for: CatchUpKey(url: url, subscription: subscription.rawValue)) {
                // Kept until the relay's EOSE, then handled oldest first (Relays/CatchUp.swift).
            } else {
                guard firstSighting(of: event) else { return }
                switch event.kind {
                case .giftWrap: await receiveGiftWrap(event)
                case .groupEvent: await receiveGroupEvent(event)
                default: note("ignored kind \(event.kind) on \(subscription)")
                }
            }
        case .endOfStoredEvents(let subscription), .closed(let subscription, _):
            if let lookup = keyPackageLookups.subscriptions[subscription.rawValue] {
                await lookupFinished(lookup, relayFailed: false)
            }
            await caughtUp(CatchUpKey(url: url, subscription: subscription.rawValue))
        case .ok(let eventID, let accepted, let text):
            await acknowledge(eventID: eventID, accepted: accepted, message: text, from: url)
        case .notice, .auth, .count:
            break
        }
    }

    /// The relay could not be reached or dropped us: lookups and publishes waiting on it fail there.
    func relayUnreachable(_ url: String) async {
        note("relay unreachable \(url)")
        for key in catchUp.keys(at: url) { await caughtUp(key, relayLost: true) }
        scheduleResubscription(to: url)
        for (_, lookup) in keyPackageLookups.subscriptions.sorted(by: { $0.key < $1.key }) where lookup.relay == url {
            await lookupFinished(lookup, relayFailed: true)
        }
        for eventID in traffic.publishes.keys.sorted() where !holdForReconnect(eventID: eventID, url: url) {
            await acknowledge(eventID: eventID, accepted: false, message: "unreachable", from: url)
        }
    }

    /// An OK (or an unreachable relay, as a refusal) for an event we published.
    func acknowledge(eventID: String, accepted: Bool, message: String, from url: String) async {
        guard let purpose = traffic.publishes[eventID] else { return }
        switch purpose {
        case .commit(let chatID):
            await commitAcknowledged(chatID: chatID, eventID: eventID, accepted: accepted, message: message, from: url)
        case .message(let chatID, let messageID, var outstanding):
            guard outstanding.remove(url) != nil else { return }
            if accepted {
                traffic.publishes[eventID] = nil
                traffic.outbox.forget(eventID)
                setDelivery(.sent, of: messageID, in: chatID)
            } else if outstanding.isEmpty {
                if retryAfterRefusal(eventID) {
                    traffic.publishes[eventID] = .message(chatID: chatID, messageID: messageID, outstanding: [])
                    return
                }
                traffic.publishes[eventID] = nil
                traffic.outbox.forget(eventID)
                setDelivery(.failed, of: messageID, in: chatID)
            } else {
                traffic.publishes[eventID] = .message(chatID: chatID, messageID: messageID, outstanding: outstanding)
            }
        case .control(let chatID, var outstanding):
            guard outstanding.remove(url) != nil else { return }
            if !accepted, outstanding.isEmpty, retryAfterRefusal(eventID) {
                traffic.publishes[eventID] = .control(chatID: chatID, outstanding: [])
            } else if accepted || outstanding.isEmpty {
                traffic.publishes[eventID] = nil
                traffic.outbox.forget(eventID)
                if !accepted { note("control \(eventID.prefix(8)) in \(chatID.prefix(8)) refused by every relay") }
            } else {
                traffic.publishes[eventID] = .control(chatID: chatID, outstanding: outstanding)
            }
        case .proposal(let chatID, var outstanding):
            guard outstanding.remove(url) != nil else { return }
            if !accepted, outstanding.isEmpty, retryAfterRefusal(eventID) {
                traffic.publishes[eventID] = .proposal(chatID: chatID, outstanding: [])
            } else if accepted || outstanding.isEmpty {
                traffic.publishes[eventID] = nil
                traffic.outbox.forget(eventID)
                if !accepted { leaveUndelivered(chatID, why: "refused by every relay (\(message))") }
            } else {
                traffic.publishes[eventID] = .proposal(chatID: chatID, outstanding: outstanding)
            }
        case .welcome(let invitee, let relays, var outstanding, let retries):
            guard outstanding.remove(url) != nil else { return }
            if accepted {
                traffic.publishes[eventID] = nil
                traffic.outbox.forget(eventID)
            } else if outstanding.isEmpty && !traffic.outbox.isHolding(eventID) {
                welcomeRefused(eventID: eventID, invitee: invitee, relays: relays, retries: retries)
            } else {
                traffic.publishes[eventID] = .welcome(invitee: invitee, relays: relays, outstanding: outstanding, retries: retries)
            }
        }
    }

    func setDelivery(_ delivery: ChatMessage.Delivery, of messageID: String, in chatID: String) {
        guard var chat = chats[chatID], let index = chat.messages.firstIndex(where: { $0.id == messageID }) else { return }
        chat.messages[index].delivery = delivery
        chats[chatID] = chat
        changed("message \(messageID.prefix(8)) \(delivery.rawValue)")
    }

    func timerFired(_ token: TimerToken) async {
        guard let purpose = timers.running.removeValue(forKey: token) else { return }
        switch purpose {
        case .keyPackageFetch(let id): await fetchTimedOut(id)
        case .commit(let chatID, let eventID): await commitTimedOut(chatID: chatID, eventID: eventID)
        case .commitSettled(let chatID, let eventID): await commitSettled(chatID: chatID, eventID: eventID)
        case .selfUpdate(let chatID): await selfUpdateDue(chatID)
        case .resubscribe(let url): resubscribe(to: url)
        case .channelRelays(let channelID): channelRelaysDue(channelID)
        case .channelRelayTest(let channelID): channelRelayTestDue(channelID)
        case .channelJoin(let channelID): channelJoinDue(channelID)
        case .roleRefresh(let chatID): changed("refresh roles \(chatID.prefix(8))")
        case .welcomeRetry(let eventID): retryWelcome(eventID)
        case .publishRetry(let eventID): retryPublish(eventID)
        case .deferredCommits(let chatID): await commitDeferred(in: chatID)
        case .acknowledgementDue(let eventID): acknowledgementDue(eventID)
        }
    }
}
