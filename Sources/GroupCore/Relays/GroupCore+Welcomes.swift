import Nostr

// Welcome delivery (MIP-02). A welcome that never reaches an inbox relay strands its invitee:
// everyone lists it as a member and it never joins. So a welcome is tracked like a chat message:
// held in the outbox while its relays are unreachable and sent when one is reachable again, and,
// when every relay refuses it, sent again after 2, 4, 8… s (`welcomeRetryAttempts` times) before
// the failure is reported. No timer runs while nothing goes wrong.
extension GroupCore {
    /// MIP-02: each welcome rumor sealed by us and gift-wrapped to its invitee's inbox relays.
    func sendWelcomes(_ welcomes: [WelcomeRumor]) {
        for (rumor, invitee) in welcomes.map({ ($0.rumor, $0.invitee) }) {
            do {
                let wrap = try GiftWrap.wrap(
                    rumor: rumor, sender: configuration.keypair, recipient: invitee, now: now, using: &random)
                let relays = directory.inboxRelays(of: invitee) ?? configuration.inboxRelays
                if configuration.behaviour.recovery.welcomes {
                    traffic.publishes[wrap.id.hex] = .welcome(invitee: invitee, relays: relays, outstanding: Set(relays), retries: 0)
                    traffic.outbox.track(wrap)
                }
                publishSigned(wrap, to: relays)
                note("sent welcome to \(invitee.hex.prefix(8)) in wrap \(wrap.id.hex.prefix(8))")
            } catch {
                fail(CoreError(.engine, "gift-wrapping a welcome: \(error.reason)"), chatID: nil)
            }
        }
    }

    /// Every relay refused the welcome: try again later, or give up visibly after the last retry.
    func welcomeRefused(eventID: String, invitee: PublicKey, relays: [String], retries: Int) {
        guard retries < configuration.behaviour.welcomeRetryAttempts else {
            traffic.publishes[eventID] = nil
            traffic.outbox.forget(eventID)
            let why = "welcome to \(invitee.hex.prefix(8)) refused by its inbox relays \(retries + 1) time(s)"
            welcomeUndelivered(to: invitee, why: why)
            return
        }
        traffic.publishes[eventID] = .welcome(invitee: invitee, relays: relays, outstanding: [], retries: retries + 1)
        note("welcome \(eventID.prefix(8)) to \(invitee.hex.prefix(8)) refused everywhere; retry \(retries + 1)")
        _ = startTimer(.welcomeRetry(eventID: eventID), milliseconds: 2_000 << UInt64(retries))
    }

    func retryWelcome(_ eventID: String) {
        guard case .welcome(let invitee, let relays, _, let retries) = traffic.publishes[eventID], let wrap = traffic.outbox.event(eventID)
        else {
            return
        }
        traffic.publishes[eventID] = .welcome(invitee: invitee, relays: relays, outstanding: Set(relays), retries: retries)
        note("sending welcome \(eventID.prefix(8)) to \(invitee.hex.prefix(8)) again")
        send(.event(wrap), to: relays)
    }

    /// A welcome that will not be sent again: which invitee it strands is reported as a failed
    /// peer (an app can offer to invite it again) beside the error, so two invitees of one
    /// action, one welcomed and one not, are told apart (mdk#1706, mdk#352).
    func welcomeUndelivered(to invitee: PublicKey, why: String) {
        record([FailedPeer(pubkey: invitee, reason: .welcomeUndelivered, detail: why, chatID: nil)], chatID: nil)
        fail(CoreError(.welcomeUndelivered, why), chatID: nil)
    }
}
