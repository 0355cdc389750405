import Nostr

/// A timer watching one publish for its relays' OKs (docs/group-core.md, "Recovery from lost
/// frames", unanswered publishes).
struct AcknowledgementWatch: Sendable, Codable {
    var token: TimerToken?
    /// How many times the event was sent again because no OK came.
    var republished = 0
}

// NIP-01 wants an OK for every EVENT, but a relay that lost the frame (or never read it) sends
// none, and then nothing else would ever happen to a chat message, control message, welcome or
// leave proposal: it stays pending on our side and never reaches anyone. So each such publish is
// watched while some relay it was sent to has not answered: with no answer within
// `publishTimeoutMilliseconds` the same signed event goes out again to the silent relays (a
// relay that has it answers `OK true "duplicate:"`), waiting twice as long each time, and after
// `publishRepublishAttempts` sends it is reported. The watch is cancelled as soon as the last
// answer arrives (`.cancelTimer`), and its timer tokens are counted apart from the core's other
// numbers, so a run where every OK comes in time is exactly what it was without watches.
// Commits have their own watch (Groups/GroupCore+Commits.swift: they are merged at the OK).
extension GroupCore {
    /// Timer tokens of watches, apart from `makeNumber()`'s (which reach subscription ids and the
    /// trace): starting a watch must not renumber anything else.
    static let acknowledgementTokenBase: UInt64 = 1 << 40

    /// Brings the watches in line with the publishes after an input: one running timer per publish
    /// that waits for some relay's answer, none otherwise (sorted keys: the effects' order is part
    /// of the run).
    func reconcileAcknowledgementWatches() {
        guard configuration.behaviour.recovery.unansweredPublishes else { return }
        for (eventID, watch) in traffic.acknowledgementWatches.sorted(by: { $0.key < $1.key }) {
            let waiting = !(traffic.publishes[eventID]?.outstanding ?? []).isEmpty
            guard !waiting else { continue }
            if let token = watch.token {
                timers.running[token] = nil
                emit(.cancelTimer(token))
            }
            if traffic.publishes[eventID] == nil {
                traffic.acknowledgementWatches[eventID] = nil
            } else {
                traffic.acknowledgementWatches[eventID]?.token = nil
            }
        }
        for (eventID, purpose) in traffic.publishes.sorted(by: { $0.key < $1.key }) {
            guard let outstanding = purpose.outstanding, !outstanding.isEmpty, traffic.acknowledgementWatches[eventID]?.token == nil
            else { continue }
            var watch = traffic.acknowledgementWatches[eventID] ?? AcknowledgementWatch()
            traffic.nextAcknowledgementToken += 1
            let token = TimerToken(Self.acknowledgementTokenBase + traffic.nextAcknowledgementToken)
            timers.running[token] = .acknowledgementDue(eventID: eventID)
            emit(.startTimer(token, milliseconds: configuration.behaviour.publishTimeoutMilliseconds << UInt64(watch.republished)))
            watch.token = token
            traffic.acknowledgementWatches[eventID] = watch
        }
    }

    /// No answer from some relays in time: the same event goes to them again, or, after the last
    /// attempt, the publish is reported as failed.
    func acknowledgementDue(_ eventID: String) {
        guard var watch = traffic.acknowledgementWatches[eventID] else { return }
        watch.token = nil
        guard let purpose = traffic.publishes[eventID], let silent = purpose.outstanding, !silent.isEmpty,
            let event = traffic.outbox.event(eventID)
        else {
            traffic.acknowledgementWatches[eventID] = nil
            return
        }
        let label = Self.outboxLabel(purpose, eventID)
        guard watch.republished < configuration.behaviour.publishRepublishAttempts else {
            traffic.acknowledgementWatches[eventID] = nil
            traffic.publishes[eventID] = nil
            traffic.outbox.forget(eventID)
            publishUnanswered(purpose, label: label, sends: watch.republished + 1)
            return
        }
        watch.republished += 1
        traffic.acknowledgementWatches[eventID] = watch
        note("no OK for \(label) from \(silent.count) relay(s); publishing it again (\(watch.republished))")
        send(.event(event), to: silent.sorted())
    }

    /// Our own message, control message or leave proposal came back on a group subscription
    /// before the relay's OK: the relay stored it (it serves only what it stores), which is what
    /// its OK would have said, so it counts as that relay's acceptance. Relays send the OK first
    /// (NIP-01), so this acts only when the OK was lost. True when the event was such a publish.
    func ownPublishServed(_ event: Event, by url: String) async -> Bool {
        guard configuration.behaviour.recovery.unansweredPublishes, let purpose = traffic.publishes[event.id.hex],
            purpose.outstanding?.contains(url) == true
        else { return false }
        if case .welcome = purpose { return false }
        note("relay \(url) serves our \(Self.outboxLabel(purpose, event.id.hex)) before its OK: stored, as its OK would say")
        await acknowledge(eventID: event.id.hex, accepted: true, message: "served", from: url)
        return true
    }

    /// The publish never got an answer: what it was for fails visibly.
    private func publishUnanswered(_ purpose: PublishPurpose, label: String, sends: Int) {
        let why = "no relay answered \(label) (\(sends) send(s))"
        switch purpose {
        case .message(let chatID, let messageID, _):
            setDelivery(.failed, of: messageID, in: chatID)
            fail(CoreError(.publishUnacknowledged, why), chatID: chatID)
        case .control(let chatID, _):
            fail(CoreError(.publishUnacknowledged, why), chatID: chatID)
        case .proposal(let chatID, _):
            leaveUndelivered(chatID, why: why)
        case .welcome(let invitee, _, _, _):
            welcomeUndelivered(to: invitee, why: why)
        case .commit:
            break
        }
    }

    /// Our leave proposal reached no relay, however often it went out: no admin can commit it, so
    /// we say so rather than stay a member silently.
    func leaveUndelivered(_ chatID: String, why: String) {
        commits.forgetLeaveProposal(in: chatID)
        fail(CoreError(.publishUnacknowledged, "leaving: \(why)"), chatID: chatID)
    }
}
