import DeterministicScheduler
import Nostr

// The real-network lane (docs/real-network.md): the relays are real processes behind real sockets.
// The network keeps its job of carrying frames between members and relays on the world's timeline
// (latency, the meaning-selected fault rules, partitions, relays down), but at the relay end of a
// link a frame is written to a socket instead of handed to an in-memory `Relay`, and what the
// socket reads back is routed to the member as the in-memory relay's outputs are. This module stays
// free of sockets: the links are an interface the lane's own target implements.

/// What a socket gave back, in the order it was read.
package enum ExternalArrival: Sendable, Equatable {
    /// One whole text frame from the relay on `connection`.
    case frame(ConnectionID, String)
    /// The connection ended (closed, reset, or unreadable), for `reason`.
    case closed(ConnectionID, reason: String)
}

/// Real connections from members to real relays, one per member × relay, opened on first use.
/// Every wait is bounded by the caller's `waitingAtMost`; an implementation never blocks longer.
package protocol ExternalRelayLinks: AnyObject, Sendable {
    /// Opens `member`'s connection to `relay` under the id the network chose.
    /// - Returns: nil when it is open, else why not (an infrastructure failure: the relay runs).
    func open(_ connection: ConnectionID, member: String, relay: String) -> String?
    /// Writes one text frame; nil when written, else why not (the connection is then closed).
    func send(_ frame: String, on connection: ConnectionID) -> String?
    /// Closes a connection (the relay sees it close); nothing arrives on it afterwards.
    func close(_ connection: ConnectionID)
    /// What arrived, waiting at most `milliseconds` for the first arrival when none is ready.
    func collect(waitingAtMost milliseconds: Int) -> [ExternalArrival]
    /// True when some open connection awaits an answer (an OK, an EOSE) its relay owes.
    var awaitsAnswers: Bool { get }
    /// True when nothing arrived for a settle window: the pushes what was sent caused have come in.
    var isQuiet: Bool { get }
    /// Answers that did not come within the answer bound, and ended the wait (infrastructure).
    func takeOverdue() -> [String]
}

extension RelayNetwork {
    /// Puts every relay of this network behind `links`: frames to relays go to real sockets from now on.
    package mutating func attachExternal(_ links: any ExternalRelayLinks) {
        externalLinks = links
        for name in hosts.keys { hosts[name]?.external = links }
        scheduler.record("relay", "all", "external relays attached")
    }

    /// Whether the relays are real processes (the real-network lane).
    package var isExternal: Bool { externalLinks != nil }

    /// On the real lane, whether relay `name` answered `OK true` for event `id` (what a real relay
    /// says it stored; its store is not readable from here).
    package func acceptedExternally(_ id: EventID, at name: String) -> Bool {
        externallyAccepted[name]?.contains(id.hex) ?? false
    }

    /// Hands what the sockets read to the timeline: a frame leaves its relay now and reaches its
    /// member after the link's latency (and the fault rules); a closed connection is lost as a frame
    /// lost on its way to a member would break it.
    ///
    /// The virtual clock must not run ahead of the real sockets: while a relay owes an answer (an
    /// OK, an EOSE), nothing else happens on the timeline until it came (a few milliseconds on
    /// loopback); and before the clock jumps far (nothing due, or the next thing due more than
    /// `externalHorizon` away, such as a delayed frame or a timer), the sockets must also have been
    /// quiet for the settle window, so that what the relays pushed meanwhile lands first. Every
    /// wait is bounded.
    mutating func pumpExternal() {
        guard let links = externalLinks else { return }
        // Bounded: each round waits at most `externalWaitMilliseconds`, and the links' own answer
        // bound (an overdue answer ends its wait) keeps the sockets from staying unsettled forever.
        for _ in 0..<Self.maximumExternalRounds {
            let farAhead =
                scheduler.nextDueTime().map { $0.microseconds > scheduler.now.microseconds + Self.externalHorizon.microseconds } ?? true
            let mustWait = links.awaitsAnswers || farAhead && !links.isQuiet
            for arrival in links.collect(waitingAtMost: mustWait ? Self.externalWaitMilliseconds : 0) { take(arrival) }
            externalFailures += links.takeOverdue()
            guard mustWait else { return }
        }
        externalFailures.append("the relays' sockets did not settle within \(Self.maximumExternalRounds) waits")
    }

    /// How far ahead the next virtual event may be before the sockets must be quiet first.
    static let externalHorizon = VirtualDuration.milliseconds(100)
    /// One wait for the sockets, in milliseconds.
    static let externalWaitMilliseconds = 20
    /// Waits before the pump gives up on unsettled sockets (with 20 ms waits: 60 s).
    static let maximumExternalRounds = 3_000

    /// What went wrong with the real relays or their sockets (infrastructure): a run that has any
    /// is an error, never a pass.
    package var externalInfrastructureFailures: [String] { externalFailures }

    private mutating func take(_ arrival: ExternalArrival) {
        switch arrival {
        case .frame(let connection, let text):
            guard let (member, relay) = externalOwner(of: connection) else { return }
            let meaning = Self.meaning(of: text)
            if case .ok(let id, true) = meaning { externallyAccepted[relay, default: []].insert(id) }
            route(Transit(member: member, relay: relay, toRelay: false, frame: text, meaning: meaning, connection: connection))
        case .closed(let connection, let reason):
            guard let (member, relay) = externalOwner(of: connection), var host = hosts[relay] else { return }
            host.connections[member] = nil
            hosts[relay] = host
            brokenConnections.insert(connection)
            scheduler.record("fault", "\(relay)->\(member)", "connection \(connection) ended: \(reason)")
            inboxes[member, default: []].append(Delivery(relay: relay, time: scheduler.now, content: .connectionLost))
        }
    }

    private func externalOwner(of connection: ConnectionID) -> (String, String)? {
        for (relay, host) in hosts {
            if let member = host.connections.first(where: { $0.value == connection })?.key { return (member, relay) }
        }
        return nil
    }

    /// What a relay's frame means, read as a client reads it; an unreadable frame still reaches the
    /// member (which must survive it) as a notice.
    static func meaning(of text: String) -> RelayOutput.Meaning {
        guard let message = try? RelayMessage(json: text, maximumBytes: 1 << 20) else { return .notice }
        switch message {
        case .event(let subscription, let event): return .event(subscription: subscription, event: event)
        case .ok(let id, let accepted, _): return .ok(eventID: id, accepted: accepted)
        case .endOfStoredEvents(let subscription): return .endOfStoredEvents(subscription)
        case .closed(let subscription, _): return .closed(subscription)
        case .notice: return .notice
        case .auth: return .auth
        case .count(let subscription, _): return .count(subscription)
        }
    }

    /// A frame reaches a real relay: written to the member's socket (opened on first use). A fault
    /// only a relay can do (`reject`, `withhold-ok`) goes first as a lane order on the same
    /// connection (`LaneOrder`; the runner lets such scenarios run only against relays that take
    /// orders); a `restart` stops the member once the frame is written, as in memory.
    mutating func arriveExternally(_ transit: Transit, on connection: ConnectionID, links: any ExternalRelayLinks) {
        let link = "\(transit.member)->\(transit.relay)"
        var frames = [transit.frame]
        let id = transit.event?.id.hex ?? ""
        switch transit.effect {
        case .reject(let prefix, let text)?:
            frames.insert(LaneOrder.reject(eventID: id, message: prefix.message(text)).frame, at: 0)
            scheduler.record("fault", link, "order the relay to reject \(transit.summary) with \(prefix)")
        case .withholdOK?:
            frames.insert(LaneOrder.withholdOK(eventID: id).frame, at: 0)
            scheduler.record("fault", link, "order the relay to withhold the OK for \(transit.summary)")
        case .swallow?, .stale?:
            // Refused before the run starts (RealNetworkLane); recorded should it ever get here.
            scheduler.record("fault", link, "\(transit.effect.map(\.traceText) ?? "") cannot act on a real relay")
        default:
            break
        }
        scheduler.record("arrive", link, transit.summary)
        for frame in frames {
            guard let failure = links.send(frame, on: connection) else { continue }
            scheduler.record("fault", link, "connection \(connection) failed: \(failure)")
            links.close(connection)
            guard var host = hosts[transit.relay] else { return }
            host.connections[transit.member] = nil
            hosts[transit.relay] = host
            brokenConnections.insert(connection)
            inboxes[transit.member, default: []].append(Delivery(relay: transit.relay, time: scheduler.now, content: .connectionLost))
            return
        }
        if case .restart(let down)? = transit.effect { requestRestart(of: transit.member, down: down, after: transit) }
    }
}

/// An order the real lane gives a relay process that takes them (ours, started with `--lane-orders`),
/// on the member's own connection just before the EVENT it is about: the relay's help for the faults
/// only a relay can do (docs/fault-proxy.md). Lane-private: a relay without the option treats the
/// frame as any unknown verb (a NOTICE), and no real client sends it.
///
///     ["MARMOT-CONFORM-ORDER", {"event": <event id hex>, "do": "reject", "message": <OK message>}]
///     ["MARMOT-CONFORM-ORDER", {"event": <event id hex>, "do": "withhold-ok"}]
package enum LaneOrder: Hashable, Sendable {
    /// Answer the EVENT `OK false` with this message, without storing it.
    case reject(eventID: String, message: String)
    /// Store the EVENT, but send its publisher no OK.
    case withholdOK(eventID: String)

    /// The frame's verb.
    package static let verb = "MARMOT-CONFORM-ORDER"

    package var eventID: String {
        switch self {
        case .reject(let id, _), .withholdOK(let id): id
        }
    }

    /// The order as its frame.
    package var frame: String {
        var fields: [String: JSONValue] = ["event": .string(eventID)]
        switch self {
        case .reject(_, let message):
            fields["do"] = .string("reject")
            fields["message"] = .string(message)
        case .withholdOK:
            fields["do"] = .string("withhold-ok")
        }
        return JSONValue.array([.string(Self.verb), .object(fields)]).serialized()
    }

    /// Reads an order frame; nil for any other frame or a malformed order.
    package init?(frame: String) {
        guard frame.hasPrefix("[\"\(Self.verb)\""), let outline = FrameOutline(frame), outline.verb == Self.verb, outline.items.count == 2,
            let fields = outline.items[1].object, let id = fields["event"]?.string, id.count == 64
        else { return nil }
        switch fields["do"]?.string {
        case "reject": self = .reject(eventID: id, message: fields["message"]?.string ?? "blocked: rejected by scenario")
        case "withhold-ok": self = .withholdOK(eventID: id)
        default: return nil
        }
    }
}
