// GroupCore: the app core members run; see IO/CoreIO.swift for its boundary.
import EngineInterface
import Nostr

/// One member's app core: owns its chats and state, talks to relays only through the effects it
/// returns, and to MLS only through its engine.
///
/// The host must await each `handle` before sending the next input (the actor would otherwise
/// interleave inputs at engine awaits and a run would stop being a function of its inputs).
/// Time arrives with every input (`now`, Unix seconds); randomness comes from the generator given
/// at init. The core never reads a clock or the OS RNG.
package actor GroupCore {
    package let configuration: CoreConfiguration
    let engine: any ProtocolEngine
    var random: CoreRandom
    var publicKey: PublicKey { configuration.keypair.publicKey }

    /// The Unix time of the input being handled.
    var now: UInt64 = 0
    /// Effects produced while handling the current input.
    var pending: [CoreEffect] = []
    var causes: [String] = []
    var started = false

    var published = AppState()
    var chats: [String: ChatRecord] = [:]
    var currentChatID: String?
    /// Chats whose removal we told the UI about, and the chats we asked to leave (so that our own
    /// leave is told as `left`, not `removed`).
    var chatEvents: [ChatEvent] = []
    var leaveRequested: Set<String> = []
    /// How much of the open chat's history its view shows (State/OpenChatPage.swift).
    var openPage = OpenChatPage(size: ChatViewState.defaultPageSize)
    var errors: [AppError] = []
    var failedPeers: [FailedPeer] = []
    /// Actions waiting for the user's decision, by id (KeyPackages/GroupCore+Decisions.swift).
    var decisions: [String: DecisionRecord] = [:]
    var rejections: [Rejection] = []
    /// Our join-by-link requests, in the order we made them (Roles/GroupCore+Links.swift).
    var joinResults: [JoinResult] = []
    /// Chats we leave once our step-down commit (out of `admin_pubkeys`) is merged.
    var leavingAfterStepDown: Set<String> = []
    /// Roles chosen at invitation for invitees not welcomed yet: announced (`invitation-role`) once
    /// the commit or creation that welcomes them has been made.
    var invitationRoles: [PublicKey: Role] = [:]
    /// Invitees of a forged invitation (a modified client skipping its own check): their role is
    /// announced for receivers to judge, and no admin-bit commit follows.
    var forgedInvitationRoles: Set<PublicKey> = []
    /// Per chat, invitees we invited as owner or admin: at their join announcement we commit the
    /// Marmot admin bit the role needs.
    var adminInvitations: [String: Set<PublicKey>] = [:]
    /// 1:1 welcomes declined per sender, because a group refused the sender's `direct-message`.
    var declinedDirectMessages: [PublicKey: Int] = [:]
    /// Chats we proposed to leave: the epoch of our latest proposal and how many we made
    /// (Groups/GroupCore+Leave.swift).
    var leaveProposals: [String: LeaveProposal] = [:]
    /// When (Unix seconds) a received commit last moved each chat to a new epoch, and commits of
    /// ours waiting for that epoch to settle (Groups/GroupCore+Settle.swift).
    var epochEnteredAt: [String: UInt64] = [:]
    var deferredCommits: [String: [CommitChange]] = [:]
    /// Group events no key opened yet, kept for a retry once a commit moves the chat on
    /// (Groups/GroupCore+FutureEvents.swift).
    var futureEvents: [String: [FutureEvent]] = [:]
    var retryingFutureEvents = false
    /// Welcomes refused while a resubscription caught up (we still held their group), tried again
    /// if that catch-up removes us (Groups/GroupCore+HeldWelcomes.swift).
    var welcomesRefusedInCatchUp: [(wrap: Event, opened: GiftWrap.Unwrapped)] = []
    /// Group catch-ups of resubscriptions (back from an outage), not of first subscriptions: only
    /// they can hold a removal that a welcome in the inbox undoes.
    var returningCatchUps: Set<CatchUpKey> = []
    /// Group events refused while we were out of their group, by chat: handed over again if a
    /// welcome takes us back (Groups/GroupCore+HeldWelcomes.swift).
    var eventsWhileRemoved: [String: [Event]] = [:]
    /// The retry count of the future event being handed over again.
    var retryCount = 0
    var busy: [String: BusyOperation] = [:]

    var directory = Directory()
    /// Ids of events already handled (received or our own), so that duplicates are ignored.
    var seenEvents: Set<String> = []
    var fetches: [UInt64: KeyPackageFetch] = [:]
    /// Key-package subscription id → (fetch, invitee, relay).
    var fetchSubscriptions: [String: (fetch: UInt64, peer: PublicKey, relay: String)] = [:]
    var commits: [String: PendingCommit] = [:]
    /// Invitees of one action left for later add commits, so that each welcome fits its path
    /// (Groups/GroupCore+Invitations.swift).
    var invitationQueues: [String: [Event]] = [:]
    /// Stored group events a relay is sending for a subscription of ours, until its EOSE: relays
    /// send history newest first (NIP-01), and commits must be applied oldest first.
    var catchUp: [CatchUpKey: [Event]] = [:]
    /// Commit event id → our merged commit in its settle window.
    var settling: [String: SettlingCommit] = [:]
    /// Chat id → our commit that left its settle window standing, until a commit builds on it:
    /// a competing commit MIP-03 ranks first can still replace it (Groups/GroupCore+Overtaken.swift).
    var stood: [String: SettlingCommit] = [:]
    /// Key-package event id → author, to match welcome rumors (their `e` tag) to invitees.
    var keyPackageAuthors: [String: PublicKey] = [:]
    var publishes: [String: PublishPurpose] = [:]
    var timers: [TimerToken: TimerPurpose] = [:]
    /// How long each timer was set for (entries of fired timers are pruned after each input).
    var timerDurations: [TimerToken: UInt64] = [:]
    /// Made from a persisted state: `.start` resumes instead of coming online for the first time.
    var restored = false
    /// Publishes waiting for their relays' OKs, by event id (Relays/GroupCore+Acknowledgements.swift).
    var acknowledgementWatches: [String: AcknowledgementWatch] = [:]
    var nextAcknowledgementToken: UInt64 = 0
    /// Lost relays we are trying to resubscribe to, by attempts so far.
    var reconnectAttempts: [String: Int] = [:]
    var nextNumber: UInt64 = 1
    /// Notification intents raised so far and muted chats (see Notifications/).
    var notifications = NotificationLog()
    /// Chat messages waiting for a relay that could not be reached.
    var outbox = Outbox()
    /// Channels we own, subscribe to, or serve as a chat relay (see Channels/).
    var channels = ChannelBook()

    /// A core for `configuration.keypair`, driving `engine`, drawing randomness from `generator`.
    package init(
        configuration: CoreConfiguration, engine: any ProtocolEngine, generator: some RandomNumberGenerator & Sendable
    ) {
        self.configuration = configuration
        self.engine = engine
        random = CoreRandom(base: generator)
    }

    /// The full current state (equal to the state of the last update emitted).
    package func state() -> AppState { published }

    /// Handles one input at Unix time `now` and returns what the host must do, in order.
    package func handle(_ input: CoreInput, now: UInt64) async -> [CoreEffect] {
        self.now = now
        pending = []
        causes = []
        switch input {
        case .start: await start()
        case .action(let action): await perform(action)
        case .relay(let url, let message): await receive(message, from: url)
        case .relayFrame(let url, let frame): await receive(frame: frame, from: url)
        case .relayUnreachable(let url): await relayUnreachable(url)
        case .relayReachable(let url): relayReachable(url)
        case .timer(let token): await timerFired(token)
        case .blob(let hash, let bytes): await received(blob: bytes, hash: hash)
        }
        await pumpChatRelay()
        reconcileAcknowledgementWatches()
        if timerDurations.count > timers.count + 64 { timerDurations = timerDurations.filter { timers[$0.key] != nil } }
        publishStateIfChanged()
        return pending
    }

    // MARK: - Helpers shared by the extensions

    func emit(_ effect: CoreEffect) {
        // Remembered for a restart, which starts every running timer again (Persistence/).
        if case .startTimer(let token, let milliseconds) = effect { timerDurations[token] = milliseconds }
        pending.append(effect)
    }

    func note(_ text: String) { pending.append(.note(text)) }

    func changed(_ cause: String) { causes.append(cause) }

    func makeNumber() -> UInt64 {
        defer { nextNumber += 1 }
        return nextNumber
    }

    func startTimer(_ purpose: TimerPurpose, milliseconds: UInt64) -> TimerToken {
        let token = TimerToken(makeNumber())
        timers[token] = purpose
        emit(.startTimer(token, milliseconds: milliseconds))
        return token
    }

    func send(_ message: ClientMessage, to relays: [String]) {
        for url in relays {
            if case .request(let subscription, _) = message, Self.isGroupSubscription(subscription) {
                catchUp[CatchUpKey(url: url, subscription: subscription.rawValue)] = []
            }
            emit(.send(url: url, message: message))
        }
    }

    /// Signs `unsigned` with our key and publishes it; our own events are never re-processed.
    @discardableResult
    func publish(_ unsigned: UnsignedEvent, to relays: [String]) -> Event? {
        do {
            let event = try unsigned.signed(with: configuration.keypair, using: &random)
            publishSigned(event, to: relays)
            return event
        } catch {
            fail(CoreError(.engine, "could not sign kind \(unsigned.kind): \(error.reason)"), chatID: nil)
            return nil
        }
    }

    func publishSigned(_ event: Event, to relays: [String]) {
        seenEvents.insert(event.id.hex)
        send(.event(event), to: relays)
    }

    func fail(_ error: CoreError, chatID: String?, engineCode: EngineError.Code? = nil) {
        errors.append(AppError(code: error.code, message: error.reason, chatID: chatID, engineCode: engineCode))
        note("error \(error.code): \(error.reason)")
        changed("error \(error.code)")
    }

    func fail(_ error: EngineError, during what: String, chatID: String?) {
        fail(CoreError(.engine, "\(what): \(error)"), chatID: chatID, engineCode: error.code)
    }

    func reject(_ event: Event, reason: String, detail: String) {
        rejections.append(Rejection(eventID: event.id.hex, kind: event.kind, reason: reason, detail: detail))
        note("rejected \(event.kind) \(event.id.hex.prefix(8)): \(reason)")
        changed("rejection \(reason)")
    }

    func setBusy(_ key: String, _ operation: BusyOperation?) {
        busy[key] = operation
        changed(operation == nil ? "done \(key)" : "busy \(key)")
    }
}
