import DeterministicScheduler
import Nostr

/// What a member receives from the network.
package struct Delivery: Hashable, Sendable {
    /// What arrived.
    package enum Content: Hashable, Sendable {
        /// A relay frame and what it means.
        case frame(String, RelayOutput.Meaning)
        /// The relay went down: the connection and its subscriptions are gone.
        case connectionLost
        /// A frame could not be sent because the relay is down.
        case unreachable
        /// The relay can be reached again (it came back up, or the member's partition healed), as an
        /// operating system's reachability callback would tell an app.
        case reachable
    }

    package let relay: String
    package let time: VirtualInstant
    package let content: Content
}

/// Several relays and the members that talk to them, over links with latency and faults, driven
/// by one deterministic scheduler. Every send, delivery, fault and relay decision is traced, so
/// two runs with the same seed and inputs have the same `trace.fingerprint`.
///
/// Members are outside this type: a caller sends frames with `send(_:from:to:)`, runs the world,
/// and collects what arrived with `takeDeliveries(for:)`.
package struct RelayNetwork: Sendable {
    /// One-way latency of every link.
    package var latency: VirtualDuration = .milliseconds(20)
    /// Extra random latency, up to this much, drawn per frame from the seeded network stream.
    package var jitter: VirtualDuration = .zero
    /// How long a reordered frame waits for a successor before it is delivered anyway.
    package var reorderTimeout: VirtualDuration = .seconds(1)

    /// The world kernel: clock, queue, generator and trace.
    package internal(set) var scheduler: Scheduler<NetworkMessage>

    var hosts: [String: RelayHost] = [:]
    var rules: [Int: ActiveRule] = [:]
    private var nextRuleID = 0
    var held: [String: [Transit]] = [:]
    var reorderSlots: [LinkKey: (token: UInt64, transit: Transit)] = [:]
    var nextReorderToken: UInt64 = 0
    var lastArrival: [LinkKey: VirtualInstant] = [:]
    var inboxes: [String: [Delivery]] = [:]
    /// Partitioned members and the drop rule that cuts their in-flight frames.
    var partitioned: [String: Int] = [:]
    /// Connections a lost frame broke (RelayNetwork+LostFrames.swift): what was still in flight on them is lost.
    var brokenConnections: Set<ConnectionID> = []
    var authorKeys: [String: String] = [:]
    /// For each `stale` rule, the ids of the events its relay received after the rule was installed.
    var staleEvents: [Int: Set<String>] = [:]
    /// How many times each member was stopped, and the restarts fault rules asked for
    /// (RelayNetwork+Restarts.swift).
    var incarnations: [String: Int] = [:]
    var restartRequests: [RestartRequest] = []
    var networkStream: SeededGenerator
    /// Set by a schedule explorer: same-instant ties are then its choice (RelayNetwork+Choices).
    package var choices: ScheduleChoices?
    private var nextConnection: UInt64 = 1
    /// The real-network lane (RelayNetwork+External.swift): the relays' sockets, what they said
    /// they stored, and what went wrong with them.
    var externalLinks: (any ExternalRelayLinks)?
    var externallyAccepted: [String: Set<String>] = [:]
    var externalFailures: [String] = []

    /// An empty world; `seed` fixes all randomness (jitter, challenges), `epochUnixSeconds` the
    /// Unix time of virtual instant zero.
    package init(seed: UInt64, epochUnixSeconds: UInt64 = 1_700_000_000) {
        scheduler = Scheduler(seed: seed, epochUnixSeconds: epochUnixSeconds)
        networkStream = scheduler.generator.child("network")
    }

    /// The run record.
    package var trace: Trace { scheduler.trace }

    /// Current Unix time of the world clock.
    package var unixSeconds: UInt64 { scheduler.clock.unixSeconds }

    /// Adds a relay named `name` (names are the handles used by faults and members).
    package mutating func addRelay(_ name: String, url: String? = nil, policy: RelayPolicy = RelayPolicy()) {
        let relay = Relay(url: url ?? "wss://\(name).relay.test/", policy: policy, generator: scheduler.generator.child("relay/\(name)"))
        hosts[name] = RelayHost(relay: relay)
        scheduler.record("relay", name, "added role \(policy.role)")
    }

    /// The relay named `name`, for inspection.
    package func relay(_ name: String) -> Relay? { hosts[name]?.relay }

    /// Whether the relay is up.
    package func isUp(_ name: String) -> Bool { hosts[name]?.isUp ?? false }

    /// Names `publicKey` as `label` so that fault selectors can say "events by alice".
    package mutating func register(member label: String, publicKey: PublicKey) {
        authorKeys[label] = publicKey.hex
    }

    /// Brings a relay down (every connection drops, members are told) or back up. Stored events
    /// survive an outage; subscriptions and authentication do not.
    package mutating func setRelay(_ name: String, up: Bool) {
        guard var host = hosts[name], host.isUp != up else { return }
        host.isUp = up
        scheduler.record("fault", name, up ? "relay up" : "relay down")
        if !up {
            for (member, connection) in host.connections.sorted(by: { $0.key < $1.key }) {
                host.disconnect(connection)
                inboxes[member, default: []].append(Delivery(relay: name, time: scheduler.now, content: .connectionLost))
            }
            host.connections = [:]
        } else {
            for member in authorKeys.keys.sorted() where partitioned[member] == nil {
                inboxes[member, default: []].append(Delivery(relay: name, time: scheduler.now, content: .reachable))
            }
        }
        hosts[name] = host
    }

    /// Installs a fault rule and returns its handle for `removeFault(_:)`.
    @discardableResult
    package mutating func addFault(_ rule: FaultRule) -> Int {
        let id = nextRuleID
        nextRuleID += 1
        rules[id] = ActiveRule(rule: rule)
        if rule.action == .stale { staleEvents[id] = [] }
        scheduler.record("fault", "rule-\(id)", "install \(rule.action.traceText) on \(rule.scope.traceText) \(rule.direction.traceText)")
        return id
    }

    /// Removes a fault rule (e.g. heals a partition).
    package mutating func removeFault(_ id: Int) {
        guard let removed = rules.removeValue(forKey: id) else { return }
        staleEvents[id] = nil
        // A relay that stops serving a member a stale history does so as a restarted relay would:
        // it closes the member's connection, and the member resubscribes and gets what it missed.
        if removed.rule.action == .stale, case .link(let member, let relay) = removed.rule.scope, var host = hosts[relay],
            let connection = host.connections.removeValue(forKey: member)
        {
            host.disconnect(connection)
            hosts[relay] = host
            scheduler.record("fault", "\(relay)->\(member)", "connection \(connection) closed: stale history ends")
            inboxes[member, default: []].append(Delivery(relay: relay, time: scheduler.now, content: .connectionLost))
        }
        scheduler.record("fault", "rule-\(id)", "removed")
    }

    /// Cuts `member` off the network as a real outage would: every connection drops (relays forget its
    /// subscriptions and authentication, the member is told), frames in flight to or from it are lost,
    /// and its sends come back unreachable until `heal(_:)`.
    @discardableResult
    package mutating func partition(_ member: String) -> Int {
        partitioned[member] = addFault(FaultRule(scope: .member(member), action: .drop))
        for name in hosts.keys.sorted() {
            guard var host = hosts[name], let connection = host.connections.removeValue(forKey: member) else { continue }
            host.disconnect(connection)
            hosts[name] = host
            inboxes[member, default: []].append(Delivery(relay: name, time: scheduler.now, content: .connectionLost))
        }
        return partitioned[member] ?? 0
    }

    /// Ends a partition: the member can reach relays again (it must reconnect and resubscribe).
    package mutating func heal(_ member: String) {
        guard let rule = partitioned.removeValue(forKey: member) else { return }
        removeFault(rule)
        scheduler.record("fault", member, "partition healed")
        for name in hosts.keys.sorted() where hosts[name]?.isUp == true {
            inboxes[member, default: []].append(Delivery(relay: name, time: scheduler.now, content: .reachable))
        }
    }

    /// Releases every frame held under `tag`, in the order they were held.
    package mutating func release(hold tag: String) {
        let frames = held.removeValue(forKey: tag) ?? []
        scheduler.record("fault", "hold \(tag)", "release \(frames.count) frame(s)")
        for transit in frames { schedule(transit, extraDelay: .zero) }
    }

    /// Sends a client frame from `member` to relay `relay`, through latency and faults.
    package mutating func send(_ frame: String, from member: String, to relay: String) {
        guard let host = hosts[relay] else {
            scheduler.record("send", "\(member)->\(relay)", "no such relay")
            return
        }
        guard partitioned[member] == nil else {
            scheduler.record("send", "\(member)->\(relay)", "unreachable (member partitioned)")
            inboxes[member, default: []].append(Delivery(relay: relay, time: scheduler.now, content: .unreachable))
            return
        }
        guard host.isUp else {
            scheduler.record("send", "\(member)->\(relay)", "unreachable (relay down)")
            inboxes[member, default: []].append(Delivery(relay: relay, time: scheduler.now, content: .unreachable))
            return
        }
        var transit = Transit(member: member, relay: relay, toRelay: true, frame: frame, meaning: nil)
        transit.incarnation = incarnations[member] ?? 0
        scheduler.record("send", "\(member)->\(relay)", transit.summary)
        route(transit)
    }

    /// Runs deliveries until the queue is empty or `limit` deliveries have run; returns how many ran.
    @discardableResult
    package mutating func runUntilIdle(limit: Int = 1_000_000) -> Int {
        var count = 0
        while count < limit, let item = nextItem(until: nil) {
            handle(item.payload)
            count += 1
        }
        return count
    }

    /// When the next delivery or relay decision is due (nil when nothing is in flight), so that a
    /// caller interleaving its own timers can choose without running a copy of the network.
    package mutating func nextDueTime() -> VirtualInstant? {
        pumpExternal()
        return scheduler.nextDueTime()
    }

    /// Runs every delivery due up to `instant`, then moves the clock there.
    package mutating func run(until instant: VirtualInstant) {
        while let item = nextItem(until: instant) { handle(item.payload) }
    }

    /// Moves the clock forward without delivering (deliveries due meanwhile run first).
    package mutating func advance(by duration: VirtualDuration) {
        run(until: scheduler.now.advanced(by: duration))
    }

    /// Everything delivered to `member` since the last call.
    package mutating func takeDeliveries(for member: String) -> [Delivery] {
        inboxes.removeValue(forKey: member) ?? []
    }

    mutating func connection(of member: String, at relay: String) -> ConnectionID? {
        guard var host = hosts[relay], host.isUp else { return nil }
        if let existing = host.connections[member] { return existing }
        let connection = ConnectionID(nextConnection)
        nextConnection += 1
        if let links = externalLinks {
            if let failure = links.open(connection, member: member, relay: relay) {
                scheduler.record("connect", "\(member)->\(relay)", "\(connection) failed: \(failure)")
                externalFailures.append("\(member) could not connect to relay \(relay): \(failure)")
                return nil
            }
            host.connections[member] = connection
            hosts[relay] = host
            scheduler.record("connect", "\(member)->\(relay)", "\(connection) (real socket)")
            return connection
        }
        host.connections[member] = connection
        let greeting = host.relay.connect(connection)
        hosts[relay] = host
        scheduler.record("connect", "\(member)->\(relay)", "\(connection)")
        for output in greeting { routeOutput(output, from: relay) }
        return connection
    }

    mutating func handle(_ message: NetworkMessage) {
        switch message {
        case .transit(let transit): arrive(transit)
        case .flushReorder(let key, let token):
            guard let slot = reorderSlots[key], slot.token == token else { return }
            reorderSlots[key] = nil
            scheduler.record("fault", key.description, "reorder timeout, deliver \(slot.transit.summary)")
            schedule(slot.transit, extraDelay: .zero)
        }
    }

    private mutating func arrive(_ transit: Transit) {
        let link = "\(transit.member)->\(transit.relay)"
        guard transit.toRelay else { return arriveAtMember(transit) }
        guard transit.incarnation == incarnations[transit.member] ?? 0 else {
            scheduler.record("lost", link, "its member stopped: \(transit.summary)")
            return
        }
        guard hosts[transit.relay]?.isUp == true, let connection = connection(of: transit.member, at: transit.relay) else {
            scheduler.record("lost", link, "relay down: \(transit.summary)")
            return
        }
        if let links = externalLinks { return arriveExternally(transit, on: connection, links: links) }
        if case .reject(let prefix, let text)? = transit.effect {
            scheduler.record("fault", link, "reject \(transit.summary) with \(prefix)")
            let id = transit.event?.id.hex ?? ""
            let reply = RelayOutput(
                connection: connection,
                frame: RelayMessage.ok(eventID: id, accepted: false, message: prefix.message(text)).json(),
                meaning: .ok(eventID: id, accepted: false)
            )
            routeOutput(reply, from: transit.relay)
            return
        }
        if transit.effect == .swallow {
            scheduler.record("fault", link, "swallow \(transit.summary), answered as stored")
            let id = transit.event?.id.hex ?? ""
            let reply = RelayOutput(
                connection: connection, frame: RelayMessage.ok(eventID: id, accepted: true, message: "").json(),
                meaning: .ok(eventID: id, accepted: true))
            routeOutput(reply, from: transit.relay)
            return
        }
        if transit.verb == "EVENT", let event = transit.event { noteForStaleRules(event, at: transit.relay) }
        scheduler.record("arrive", link, transit.summary)
        guard var host = hosts[transit.relay] else { return }
        let outputs = host.relay.receive(transit.frame, from: connection, now: scheduler.clock.unixSeconds)
        for decision in host.relay.drainJournal() { scheduler.record("relay", transit.relay, decision) }
        hosts[transit.relay] = host
        for output in outputs {
            if transit.effect == .withholdOK, output.connection == connection, case .ok = output.meaning {
                scheduler.record("fault", link, "withhold OK for \(transit.summary)")
                continue
            }
            routeOutput(output, from: transit.relay)
        }
        if case .restart(let down)? = transit.effect { requestRestart(of: transit.member, down: down, after: transit) }
    }

    /// Remembers an event reaching `relay` for every `stale` rule watching it: from now on the
    /// rule's member is not shown it.
    private mutating func noteForStaleRules(_ event: Event, at relay: String) {
        for id in staleEvents.keys.sorted() {
            guard let rule = rules[id]?.rule else { continue }
            switch rule.scope {
            case .relay(let name), .link(_, let name): guard name == relay else { continue }
            case .everywhere, .member: break
            }
            staleEvents[id, default: []].insert(event.id.hex)
        }
    }

    mutating func routeOutput(_ output: RelayOutput, from relay: String) {
        guard let member = hosts[relay]?.connections.first(where: { $0.value == output.connection })?.key else { return }
        route(
            Transit(
                member: member, relay: relay, toRelay: false, frame: output.frame, meaning: output.meaning, connection: output.connection))
    }
}

/// The scheduler's payload: a frame in flight, or a reorder timeout.
package enum NetworkMessage: Sendable {
    case transit(Transit)
    case flushReorder(LinkKey, UInt64)
}

/// A relay with its up/down state and the members' connections to it.
struct RelayHost: Sendable {
    var relay: Relay
    var isUp = true
    var connections: [String: ConnectionID] = [:]
    /// On the real lane, the sockets a connection is closed on as well.
    var external: (any ExternalRelayLinks)?

    /// The relay forgets the connection; on the real lane its socket closes too.
    mutating func disconnect(_ connection: ConnectionID) {
        relay.disconnect(connection)
        external?.close(connection)
    }
}

/// One direction of one member–relay link.
package struct LinkKey: Hashable, Sendable, CustomStringConvertible {
    let member: String
    let relay: String
    let toRelay: Bool
    package var description: String { toRelay ? "\(member)->\(relay)" : "\(relay)->\(member)" }
}

/// A rule with its match counter.
struct ActiveRule: Sendable {
    let rule: FaultRule
    var matches = 0
}
