import DeterministicScheduler
import EngineInterface
import GroupCore
import InMemoryRelay
import Nostr

/// Makes the engine of one member from its label and a 32-byte storage key drawn from the
/// world's generator (enough for MDK). The world never names a concrete engine.
package typealias EngineFactory = @Sendable (_ label: String, _ storageKey: [UInt8]) async throws -> any ProtocolEngine

/// Makes the engine of one member from everything the world offers, including a seeded stream and
/// the world clock (what a deterministic engine needs).
package typealias ContextualEngineFactory = @Sendable (EngineContext) async throws -> any ProtocolEngine

/// Relays, members and their timers on one virtual timeline.
///
/// Each `step()` runs exactly one thing: the next network delivery or the next member timer,
/// whichever is due first (a delivery wins a tie), and feeds what it produced to the members'
/// cores in label order, carrying out their effects before the next step. Cores are awaited one
/// input at a time, so with deterministic engines a run is a function of the seed: same seed and
/// actions → same `fingerprint`. (MDK is deterministic too when its driver runs on the world's clock
/// and seed: docs/driver-protocol.md, "Determinism".)
package final class World {
    /// The network; tests install faults on it directly.
    package var network: RelayNetwork
    /// Member decisions, timers and effects (the network keeps its own trace).
    package private(set) var log = Trace()
    /// For each `log` entry, how many network trace entries preceded it: the two traces merge into
    /// the one order in which things happened (outside both fingerprints).
    package private(set) var logAnchors: [Int] = []
    package internal(set) var members: [String: SimulatedMember] = [:]
    let engineFactory: ContextualEngineFactory
    var generator: SeededGenerator
    private var relayNames: [String: String] = [:]
    /// Each relay's event limit by URL: what a member would read from its NIP-11 document.
    var relayEventLimits: [String: Int] = [:]
    var timers: [WorldTimer] = []
    private var timerSequence: UInt64 = 0
    let clock = WorldClock()
    var tampers: [Tamper] = []
    /// Group-image blobs (BlobStore.swift), and fetches waiting for their answer.
    var blobStore = BlobStore()
    var blobFetches: [(member: String, hash: String)] = []
    /// Every event a member's core published, once each, in publication order, with the member:
    /// for `inject` copies and for oracles about competing commits (MIP-03). Kind-445 events are
    /// signed by one-time keys, so only this record says who published one.
    package private(set) var published: [(member: String, event: Event)] = []
    private var publishedIDs: Set<EventID> = []
    /// Seeded stream for injected events (throwaway keys, broken signatures).
    var injectStream: SeededGenerator
    /// Restarts (World+Restart.swift): the run's storage root when it persists, each member's
    /// options (a restarted core is configured as the first), how often each was started, the
    /// members that are down and when each starts again.
    let storage: StorageRoot?
    var memberOptions: [String: MemberOptions] = [:]
    var startCounts: [String: Int] = [:]
    var downMembers: Set<String> = []
    var pendingStarts: [PendingStart] = []
    /// What went wrong restarting members outside the protocol (an engine that could not be made
    /// again, a state the world could not write or read back): infrastructure, which the run
    /// reports as an error, never as a member that merely forgot.
    package internal(set) var restartFailures: [String] = []
    /// Crash points (World+Crash.swift): each member's switch (persisting runs only), how long a
    /// member that crashes stays down, and the crashes that happened, in order.
    var crashSwitches: [String: CrashSwitch] = [:]
    var crashDowntimes: [String: VirtualDuration] = [:]
    /// The other members a crash step armed with each (the first to reach the point dies alone).
    var crashSiblings: [String: [String]] = [:]
    package internal(set) var crashes: [(member: String, point: CrashPoint)] = []
    /// The store damages crashes brought (boundary 8), by member, in the order they happened.
    package internal(set) var damages: [(member: String, damage: StoreDamage)] = []

    package convenience init(configuration: WorldConfiguration, engineFactory: @escaping EngineFactory) {
        self.init(
            configuration: configuration,
            makeEngine: { context in
                try await engineFactory(context.label, context.storageKey)
            })
    }

    package init(configuration: WorldConfiguration, makeEngine engineFactory: @escaping ContextualEngineFactory) {
        network = RelayNetwork(seed: configuration.seed, epochUnixSeconds: configuration.epochUnixSeconds)
        network.latency = configuration.latency
        network.jitter = configuration.jitter
        generator = network.scheduler.generator.child("members")
        injectStream = network.scheduler.generator.child("inject")
        self.engineFactory = engineFactory
        storage = configuration.persistent ? StorageRoot() : nil
        for relay in configuration.relays {
            let url = WorldConfiguration.url(of: relay.name)
            network.addRelay(relay.name, url: url, policy: relay.policy)
            if relay.startsDown { network.setRelay(relay.name, up: false) }
            relayNames[url] = relay.name
            relayEventLimits[url] = relay.policy.maximumEventBytes
        }
    }

    /// The relays (by name) that hold event `id` now.
    package func relaysStoring(_ id: EventID) -> [String] {
        // A real relay's store is not readable from here: what it answered `OK true` stands for it.
        if network.isExternal { return relayNames.values.sorted().filter { network.acceptedExternally(id, at: $0) } }
        return relayNames.values.sorted().filter { name in
            !(network.relay(name)?.storedEvents(matching: [Filter(ids: [id.hex])], now: network.unixSeconds).isEmpty ?? true)
        }
    }

    /// Both traces' fingerprints: the network's and the members'.
    package var fingerprint: String { network.trace.fingerprint + log.fingerprint }

    /// Current virtual time.
    package var now: VirtualInstant { network.scheduler.now }

    /// Labels in the order cores are served.
    package var labels: [String] { members.keys.sorted() }

    package func member(_ label: String) -> SimulatedMember? { members[label] }

    /// Adds a member: keys and storage key from the world's generator, engine from the factory,
    /// then starts its core (profile, relay lists, key package, subscriptions).
    @discardableResult
    package func addMember(_ label: String, options: MemberOptions = MemberOptions()) async throws -> PublicKey {
        var stream = generator.child("member/\(label)")
        let keypair = Keypair.generate(using: &stream)
        let storageKey = (0..<4).flatMap { _ in withUnsafeBytes(of: stream.next().littleEndian, Array.init) }
        // An engine may read the clock while it is made (MDK's driver does): give it the world's now.
        clock.set(network.unixSeconds)
        memberOptions[label] = options
        startCounts[label] = 0
        let engine = try await engineFactory(engineContext(label, storageKey: storageKey, stream: stream, start: 0, accountKey: keypair))
        let configuration = coreConfiguration(keypair: keypair, label: label, options: options)
        let core = GroupCore(configuration: configuration, engine: engine, generator: stream.child("core"))
        // The channel's stream is a child of its own: asking for perturbations draws nothing
        // any other stream would have drawn, so no other member's run changes.
        let channel = UpdateChannel(perturbations: options.updateDelivery, stream: network.scheduler.generator.child("host/\(label)"))
        members[label] = SimulatedMember(
            label: label, keypair: keypair, storageKey: storageKey, core: core, engine: engine, host: UpdateHost(rules: options.hostRules),
            channel: channel)
        network.register(member: label, publicKey: keypair.publicKey)
        record("member", label, "added \(keypair.publicKey.hex.prefix(16))")
        await feed(.start, to: label)
        return keypair.publicKey
    }

    /// GroupCore's always-on invariant, per member: updates carry revs 1, 2, 3…, each update's state
    /// has its rev, and `state()` equals the last update. Empty when it holds everywhere.
    package func updateStreamViolations() async -> [String] {
        var violations: [String] = []
        for label in labels {
            guard let member = members[label] else { continue }
            let revs = member.updates.map(\.rev)
            if revs != (0..<revs.count).map({ UInt64($0) + 1 }) {
                violations.append("\(label): revs \(revs.prefix(12)) are not 1, 2, 3…")
            }
            if let update = member.updates.first(where: { $0.state.rev != $0.rev }) {
                violations.append("\(label): update \(update.rev) carries a state with rev \(update.state.rev)")
            }
            let current = await member.core.state()
            if let last = member.updates.last {
                if current != last.state { violations.append("\(label): state() differs from the last update") }
            } else if current.rev != 0 {
                violations.append("\(label): state() is at rev \(current.rev) but no update reached the host")
            }
        }
        return violations
    }

    /// The host oracle, per member: with the run over (the channels closed), each host's view
    /// equals its core's `state()`, and never went back in time. Empty when it holds everywhere.
    package func hostViewViolations() async -> [String] {
        for label in labels { await closeUpdateChannel(of: label) }
        var violations: [String] = []
        for label in labels {
            guard let member = members[label] else { continue }
            let current = await member.core.state()
            if member.host.view != current {
                violations.append(
                    "\(label): the host shows rev \(member.host.view.rev), the core is at rev \(current.rev)"
                        + (member.host.view.rev == current.rev ? " with another state" : ""))
            }
            if !member.host.regressions.isEmpty {
                violations.append("\(label): the host's view went back (\(member.host.regressions.prefix(3).joined(separator: ", ")))")
            }
        }
        return violations
    }

    /// How each perturbed member's host fared: updates applied, stale ones dropped, resyncs.
    package func hostSummaries() -> [String] {
        labels.compactMap { label in
            guard let member = members[label], !member.channel.perturbations.isEmpty else { return nil }
            let host = member.host
            return "\(label): \(host.applied) applied, \(host.staleDropped) stale dropped, \(host.resyncs) resync(s)"
        }
    }

    /// Test seam (the rev-continuity oracle's twin): the member's host loses one update it had
    /// received, as a lossy update channel would. Never called by the runner.
    package func loseRecordedUpdate(of label: String, at index: Int) {
        guard let updates = members[label]?.updates, updates.indices.contains(index) else { return }
        members[label]?.updates.remove(at: index)
    }

    /// Hands a UI action to a member's core now.
    package func dispatch(_ label: String, _ action: AppAction) async {
        record("dispatch", label, action.traceText)
        await feed(.action(action), to: label)
    }

    /// Runs the next delivery or timer; false when nothing is left.
    @discardableResult
    package func step() async -> Bool {
        // Deliveries the network produced without a queue step (a send to a downed relay is
        // answered "unreachable" at once) come before anything later on the timeline.
        if await deliverArrivals() { return true }
        if await carryOutRestartRequests() { return true }
        // A member that starts again comes before a timer due at the same instant.
        if let start = pendingStarts.first, start.time <= (timers.first?.time ?? start.time) {
            if await networkStepsFirst(before: start.time) { return true }
            pendingStarts.removeFirst()
            network.advance(by: VirtualDuration(microseconds: start.time.microseconds - now.microseconds))
            await startAgain(start.member)
            return true
        }
        let nextTimer = timers.first
        if let nextTimer {
            // The network's step goes first when it is due no later than the timer.
            if await networkStepsFirst(before: nextTimer.time) { return true }
            timers.removeFirst()
            network.advance(by: VirtualDuration(microseconds: nextTimer.time.microseconds - now.microseconds))
            record("timer", nextTimer.member, nextTimer.token.traceText)
            await feed(.timer(nextTimer.token), to: nextTimer.member)
            return true
        }
        guard network.runUntilIdle(limit: 1) == 1 else { return false }
        await deliverArrivals()
        return true
    }

    /// Runs one network step and delivers what it produced when the network is due no later than
    /// `time` (a delivery wins a tie with a timer or a start); false when nothing was due.
    private func networkStepsFirst(before time: VirtualInstant) async -> Bool {
        guard let due = network.nextDueTime(), due <= time else { return false }
        network.runUntilIdle(limit: 1)
        await deliverArrivals()
        return true
    }

    /// Steps until nothing is in flight and no timer is pending (or `limit` steps ran); returns
    /// the number of steps taken.
    @discardableResult
    package func runUntilQuiescent(limit: Int = 100_000) async -> Int {
        var count = 0
        while count < limit, await step() { count += 1 }
        return count
    }

    /// Steps through everything due in the next `duration`, then moves the clock to its end.
    package func run(for duration: VirtualDuration) async {
        let deadline = now.advanced(by: duration)
        while true {
            let networkDue = network.nextDueTime().map { $0 <= deadline } ?? false
            let timerDue = timers.first.map { $0.time <= deadline } ?? false
            let startDue = pendingStarts.first.map { $0.time <= deadline } ?? false
            guard networkDue || timerDue || startDue || network.hasRestartRequests else { break }
            await step()
        }
        network.advance(by: VirtualDuration(microseconds: deadline.microseconds - now.microseconds))
    }

    // MARK: - Internals

    /// Feeds every waiting delivery to its member; false when there was none.
    @discardableResult
    private func deliverArrivals() async -> Bool {
        var delivered = false
        for label in labels {
            for delivery in network.takeDeliveries(for: label) {
                delivered = true
                // A stopped app reads nothing (the network closed its connections as it stopped).
                guard !downMembers.contains(label) else { continue }
                let url = WorldConfiguration.url(of: delivery.relay)
                switch delivery.content {
                case .frame(let text, _):
                    await feed(.relayFrame(url: url, frame: tampered(text, to: label)), to: label)
                case .reachable:
                    await feed(.relayReachable(url: url), to: label)
                case .connectionLost, .unreachable:
                    await feed(.relayUnreachable(url: url), to: label)
                }
            }
        }
        return delivered
    }

    func feed(_ input: CoreInput, to label: String) async {
        // Deliveries and timers of a stopped member are dropped before they get here; an action
        // dispatched to it is lost (its app is not running), and the trace says so.
        if downMembers.contains(label) {
            if case .action = input { record("member", label, "down: the action is lost") }
            return
        }
        guard let core = members[label]?.core else { return }
        clock.set(network.unixSeconds)
        // Only under a schedule explorer: the member's inputs make its part of the state key.
        if network.choices != nil {
            let instant = now.microseconds
            network.choices?.absorb(input: input.traceText, into: "member \(label)", at: instant)
        }
        let effects = await core.handle(input, now: network.unixSeconds)
        if await crashed(label, losing: effects) { return }
        var arrivals: [AppUpdate] = []
        for effect in effects {
            carryOut(effect, for: label)
            if case .update(let update) = effect { arrivals += offerToHost(update, of: label) }
        }
        await deliverToHost(arrivals, of: label)
        if storage != nil { await persist(label) }
        if !blobFetches.isEmpty { await answerBlobFetches() }
    }

    /// Puts an update on the member's channel; what arrives at the host now, in order.
    private func offerToHost(_ update: AppUpdate, of label: String) -> [AppUpdate] {
        guard let (arrivals, fate) = members[label]?.channel.offer(update) else { return [] }
        // Traced only on perturbed channels: on a faithful one every update arrives as offered,
        // which the `update` line already says.
        if let fate { record("host", label, "rev \(update.rev) \(fate)") }
        return arrivals
    }

    /// The host applies what arrived by its rules; a gap makes it read the core's whole state.
    private func deliverToHost(_ arrivals: [AppUpdate], of label: String) async {
        guard let member = members[label] else { return }
        let traced = !member.channel.perturbations.isEmpty
        for update in arrivals {
            switch members[label]?.host.receive(update) {
            case .droppedStale?:
                if traced { record("host", label, "rev \(update.rev) stale, dropped") }
            case .resync?:
                let state = await member.core.state()
                members[label]?.host.resynced(state)
                if traced { record("host", label, "rev \(update.rev) after a gap: resync at rev \(state.rev)") }
            case .applied?, nil:
                break
            }
        }
    }

    /// The end of a run: whatever the member's channel still holds reaches its host.
    private func closeUpdateChannel(of label: String) async {
        guard let arrivals = members[label]?.channel.close() else { return }
        await deliverToHost(arrivals, of: label)
    }

    private func carryOut(_ effect: CoreEffect, for label: String) {
        switch effect {
        case .send(let url, let message):
            // Engines may hand back group relay URLs with a trailing slash added or removed.
            var bare = Substring(url)
            while bare.hasSuffix("/") { bare = bare.dropLast() }
            guard let relay = relayNames[url] ?? relayNames[String(bare)] else {
                record("send", label, "no relay at \(url)")
                return
            }
            if case .event(let event) = message, publishedIDs.insert(event.id).inserted { published.append((label, event)) }
            network.send(message.json(), from: label, to: relay)
        case .startTimer(let token, let milliseconds):
            timerSequence += 1
            let timer = WorldTimer(
                time: now.advanced(by: .milliseconds(milliseconds)), sequence: timerSequence, member: label, token: token)
            let index = timers.firstIndex { ($0.time, $0.sequence) > (timer.time, timer.sequence) } ?? timers.endIndex
            timers.insert(timer, at: index)
        case .cancelTimer(let token):
            // Not traced: a cancelled timer leaves the run as if it had never been started.
            timers.removeAll { $0.member == label && $0.token == token }
        case .uploadBlob(let bytes):
            uploadBlob(bytes, from: label)
        case .fetchBlob(let hash):
            blobFetches.append((label, hash))
        case .update(let update):
            members[label]?.updates.append(update)
            record("update", label, "rev \(update.rev): \(update.cause)")
        case .note(let text):
            record("core", label, text)
        }
    }

    func record(_ category: String, _ subject: String, _ detail: String) {
        logAnchors.append(network.trace.count)
        log.record(at: now, category, subject, detail)
    }
}
