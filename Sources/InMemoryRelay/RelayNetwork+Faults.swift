import DeterministicScheduler
import Nostr

/// A frame in flight between a member and a relay, with what the fault selectors need to know.
package struct Transit: Sendable {
    let member: String
    let relay: String
    let toRelay: Bool
    let frame: String
    let meaning: RelayOutput.Meaning?
    /// The frame's verb (`EVENT`, `REQ`, `OK`, …), nil for unreadable frames.
    let verb: String?
    /// The event the frame carries, if any (client EVENT frames are read without verification:
    /// selection is by meaning, and the relay does the verifying).
    let event: Event?
    /// A fault that acts when the frame reaches the relay (`reject`, `withholdOK`).
    var effect: FaultRule.Action?
    /// The relay's connection a frame to a member travels on.
    let connection: ConnectionID?
    /// Which start of its member sent a frame to a relay: a frame a stopped member had in flight
    /// is lost (RelayNetwork+Restarts.swift).
    var incarnation = 0

    init(member: String, relay: String, toRelay: Bool, frame: String, meaning: RelayOutput.Meaning?, connection: ConnectionID? = nil) {
        self.connection = connection
        self.member = member
        self.relay = relay
        self.toRelay = toRelay
        self.frame = frame
        self.meaning = meaning
        if let meaning {
            (verb, event) = Self.read(meaning)
        } else if let outline = FrameOutline(frame) {
            verb = outline.verb
            // Frames without a meaning travel towards the relay: a client's ["EVENT", event].
            event = outline.items.count == 2 ? outline.unverifiedEvent : nil
        } else {
            verb = nil
            event = nil
        }
    }

    private static func read(_ meaning: RelayOutput.Meaning) -> (String, Event?) {
        switch meaning {
        case .event(_, let event): ("EVENT", event)
        case .ok: ("OK", nil)
        case .endOfStoredEvents: ("EOSE", nil)
        case .closed: ("CLOSED", nil)
        case .notice: ("NOTICE", nil)
        case .auth: ("AUTH", nil)
        case .count: ("COUNT", nil)
        }
    }

    var link: LinkKey { LinkKey(member: member, relay: relay, toRelay: toRelay) }

    /// Short deterministic description for the trace.
    var summary: String {
        var parts = [verb ?? "unreadable"]
        switch meaning {
        case .event(let sub, _)?, .endOfStoredEvents(let sub)?, .closed(let sub)?, .count(let sub)?: parts.append(sub.rawValue)
        case .ok(let id, let accepted)?: parts += [String(id.prefix(8)), accepted ? "true" : "false"]
        default: break
        }
        if let event { parts += [String(event.id.hex.prefix(8)), "kind \(event.kind)"] }
        return parts.joined(separator: " ")
    }
}

extension RelayNetwork {
    /// Applies the fault rules (in installation order) to a frame about to travel, then
    /// schedules what is left of it.
    mutating func route(_ original: Transit) {
        var transit = original
        var extraDelay = VirtualDuration.zero
        var copies = 1
        var reorder = false
        let link = transit.link.description
        for id in rules.keys.sorted() {
            guard var active = rules[id], applies(active.rule, to: transit) else { continue }
            active.matches += 1
            rules[id] = active
            switch active.rule.occurrences {
            case .all: break
            case .nth(let n): guard active.matches == n else { continue }
            case .first(let n): guard active.matches <= n else { continue }
            }
            let rule = active.rule
            switch rule.action {
            case .drop:
                scheduler.record("fault", link, "rule-\(id) drop \(transit.summary)")
                // A partition already closed the member's connections; any other lost frame
                // on its way to a member takes its connection with it.
                if !transit.toRelay, !partitioned.values.contains(id) { breakConnection(of: transit) }
                return
            case .hold(let tag):
                scheduler.record("fault", link, "rule-\(id) hold \(transit.summary) under \(tag)")
                held[tag, default: []].append(transit)
                return
            case .delay(let duration):
                scheduler.record("fault", link, "rule-\(id) delay \(transit.summary) by \(duration.microseconds) us")
                extraDelay = VirtualDuration(microseconds: extraDelay.advancedMicroseconds(by: duration))
            case .duplicate:
                scheduler.record("fault", link, "rule-\(id) duplicate \(transit.summary)")
                copies += 1
            case .reorder:
                scheduler.record("fault", link, "rule-\(id) reorder \(transit.summary)")
                reorder = true
            case .restart:
                guard !transit.toRelay || transit.verb == "EVENT" else { continue }
                scheduler.record("fault", link, "rule-\(id) mark \(transit.summary) for \(rule.action.traceText)")
                transit.effect = rule.action
            case .stale:
                // Only what reached the relay after the rule was installed is withheld; the
                // connection stays open, as a relay lying by omission would keep it.
                guard !transit.toRelay, let event = transit.event, staleEvents[id]?.contains(event.id.hex) == true else { continue }
                scheduler.record("fault", link, "rule-\(id) withhold newer \(transit.summary)")
                return
            case .reject, .withholdOK, .swallow:
                guard transit.toRelay, transit.verb == "EVENT" else { continue }
                scheduler.record("fault", link, "rule-\(id) mark \(transit.summary) for \(rule.action.traceText)")
                transit.effect = rule.action
            }
        }
        if reorder {
            // A frame already waiting on this link keeps its place; the new one waits for the next.
            if let waiting = reorderSlots.removeValue(forKey: transit.link) { schedule(waiting.transit, extraDelay: .zero) }
            let token = nextReorderToken
            nextReorderToken += 1
            reorderSlots[transit.link] = (token, transit)
            scheduler.schedule(.flushReorder(transit.link, token), after: reorderTimeout, label: "reorder timeout \(link)")
            return
        }
        var arrival = VirtualInstant.zero
        for _ in 0..<copies { arrival = schedule(transit, extraDelay: extraDelay) }
        if let waiting = reorderSlots.removeValue(forKey: transit.link) {
            scheduler.record("fault", link, "deliver reordered \(waiting.transit.summary) after \(transit.summary)")
            scheduler.schedule(.transit(waiting.transit), at: arrival.advanced(by: VirtualDuration(microseconds: 1)), label: link)
        }
    }

    /// Schedules a frame after the link latency (plus seeded jitter) and `extraDelay`; returns its
    /// arrival time.
    @discardableResult
    mutating func schedule(_ transit: Transit, extraDelay: VirtualDuration) -> VirtualInstant {
        var delay = latency
        if jitter.microseconds > 0 {
            delay = VirtualDuration(
                microseconds: delay.advancedMicroseconds(
                    by: VirtualDuration(
                        microseconds: UInt64.random(in: 0...jitter.microseconds, using: &networkStream))))
        }
        var arrival = scheduler.now.advanced(by: delay)
        // A WebSocket runs over TCP: jitter never lets a frame overtake an earlier one on its link.
        if let last = lastArrival[transit.link], arrival <= last { arrival = last.advanced(by: VirtualDuration(microseconds: 1)) }
        lastArrival[transit.link] = arrival
        arrival = arrival.advanced(by: extraDelay)
        scheduler.schedule(.transit(transit), at: arrival, label: transit.link.description)
        return arrival
    }

    private func applies(_ rule: FaultRule, to transit: Transit) -> Bool {
        switch rule.scope {
        case .everywhere: break
        case .relay(let name): guard transit.relay == name else { return false }
        case .member(let name): guard transit.member == name else { return false }
        case .link(let member, let relay): guard transit.member == member, transit.relay == relay else { return false }
        }
        switch rule.direction {
        case .both: break
        case .toRelay: guard transit.toRelay else { return false }
        case .toMember: guard !transit.toRelay else { return false }
        }
        return rule.selector.matches(verb: transit.verb, event: transit.event, authorKeys: authorKeys)
    }
}

extension VirtualDuration {
    fileprivate func advancedMicroseconds(by other: VirtualDuration) -> UInt64 {
        let (sum, overflow) = microseconds.addingReportingOverflow(other.microseconds)
        return overflow ? .max : sum
    }
}
