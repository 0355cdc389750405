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
    var now: UInt64 { turn.now }

    /// The input being handled: its time and what it has produced so far.
    var turn = Turn()
    /// Whether the core has started, and the counter its numbers come from.
    var session = Session()
    /// What the user is shown and was told: the state last published and what it is made from.
    var ui = UIBook()
    var chats: [String: ChatRecord] = [:]
    /// Our commits, from publication to standing, and what waits for them (Groups/CommitBook.swift).
    var commits = CommitBook()
    /// Group events waiting for a catch-up to end or for a later epoch (Relays/CatchUpBook.swift).
    var catchUp = CatchUpBook()
    /// What we intend for members: invitees' roles, decisions asked of the user, leaves.
    var membership = MembershipBook()
    /// Key-package lookups under way and the authors of the key packages they found.
    var keyPackageLookups = KeyPackageLookups()
    /// Peers' relay lists and profiles.
    var directory = Directory()
    /// What we publish and receive: publishes waiting for OKs, the outbox, events seen, reconnects.
    var traffic = Traffic()
    /// Running timers, with what they are for and how long they were set for.
    var timers = TimerBook()
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
    package func state() -> AppState { ui.published }

    /// Handles one input at Unix time `now` and returns what the host must do, in order.
    package func handle(_ input: CoreInput, now: UInt64) async -> [CoreEffect] {
        turn = Turn(now: now)
        switch input {
        case .start: await start()
        case .action(let action): await performRecorded(action)
        case .relay(let url, let message): await receive(message, from: url)
        case .relayFrame(let url, let frame): await receive(frame: frame, from: url)
        case .relayUnreachable(let url): await relayUnreachable(url)
        case .relayReachable(let url): relayReachable(url)
        case .timer(let token): await timerFired(token)
        case .blob(let hash, let bytes): await received(blob: bytes, hash: hash)
        }
        await pumpChatRelay()
        reconcileAcknowledgementWatches()
        timers.pruneDurations()
        concludeActions()
        publishStateIfChanged()
        return turn.effects
    }

    // MARK: - Helpers shared by the extensions

    func emit(_ effect: CoreEffect) {
        // Remembered for a restart, which starts every running timer again (Persistence/).
        if case .startTimer(let token, let milliseconds) = effect { timers.durations[token] = milliseconds }
        turn.effects.append(effect)
    }

    func note(_ text: String) { turn.effects.append(.note(text)) }

    func changed(_ cause: String) { turn.causes.append(cause) }

    func makeNumber() -> UInt64 { session.makeNumber() }

    func startTimer(_ purpose: TimerPurpose, milliseconds: UInt64) -> TimerToken {
        let token = TimerToken(makeNumber())
        timers.running[token] = purpose
        emit(.startTimer(token, milliseconds: milliseconds))
        return token
    }

    func send(_ message: ClientMessage, to relays: [String]) {
        for url in relays {
            if case .request(let subscription, _) = message, Self.isGroupSubscription(subscription) {
                catchUp.begin(CatchUpKey(url: url, subscription: subscription.rawValue))
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
        _ = firstSighting(of: event)
        send(.event(event), to: relays)
    }

    /// Remembers `event` as handled; false when it was already (a copy, to be ignored). At most
    /// `retainedEventIDs` ids are kept, the oldest forgotten first (Relays/SeenEvents.swift).
    func firstSighting(of event: Event) -> Bool {
        traffic.seenEvents.insert(event.id.hex, cap: retainedEventIDs)
    }

    /// The cap on remembered event ids: the product's, or less under the test knob.
    var retainedEventIDs: Int { min(configuration.behaviour.retainedEventIDs, SeenEvents.retained) }

    func fail(_ error: CoreError, chatID: String?, engineCode: EngineError.Code? = nil) {
        ui.errors.append(AppError(code: error.code, message: error.reason, chatID: chatID, engineCode: engineCode))
        note("error \(error.code): \(error.reason)")
        changed("error \(error.code)")
    }

    func fail(_ error: EngineError, during what: String, chatID: String?) {
        fail(CoreError(.engine, "\(what): \(error)"), chatID: chatID, engineCode: error.code)
    }

    func reject(_ event: Event, reason: String, detail: String) {
        ui.rejections.append(Rejection(eventID: event.id.hex, kind: event.kind, reason: reason, detail: detail))
        note("rejected \(event.kind) \(event.id.hex.prefix(8)): \(reason)")
        changed("rejection \(reason)")
    }

    func setBusy(_ key: String, _ operation: BusyOperation?) {
        ui.busy[key] = operation
        changed(operation == nil ? "done \(key)" : "busy \(key)")
    }
}

/// The input being handled: its Unix time, the effects produced so far, and why the state changed.
struct Turn: Sendable {
    var now: UInt64 = 0
    var effects: [CoreEffect] = []
    var causes: [String] = []
}

/// The core's life beyond one input.
struct Session: Sendable {
    /// `.start` was handled: the core is online.
    var started = false
    /// Made from a persisted state: `.start` resumes instead of coming online for the first time.
    var restored = false
    /// The next number of `makeNumber()` (timer tokens, lookup ids, control sequence numbers).
    var nextNumber: UInt64 = 1

    mutating func makeNumber() -> UInt64 {
        defer { nextNumber += 1 }
        return nextNumber
    }
}
