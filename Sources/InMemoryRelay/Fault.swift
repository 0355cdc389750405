import DeterministicScheduler
import Nostr

/// A fault a scenario applies to frames in a `RelayNetwork`, chosen by what the frames mean
/// (kind, author, group, tag, nth occurrence), never by their position in the queue.
package struct FaultRule: Sendable {
    /// Which links the rule watches.
    package enum Scope: Hashable, Sendable {
        /// Every link.
        case everywhere
        /// Every link to and from one relay.
        case relay(String)
        /// Every link of one member (a partition when combined with `.drop`).
        case member(String)
        /// The link between one member and one relay.
        case link(member: String, relay: String)
    }

    /// Which way the frames travel.
    package enum Direction: Hashable, Sendable {
        case toRelay, toMember, both
    }

    /// What happens to a selected frame.
    package enum Action: Hashable, Sendable {
        /// The frame is lost.
        case drop
        /// The frame arrives this much later than it would have.
        case delay(VirtualDuration)
        /// The frame arrives twice.
        case duplicate
        /// The frame arrives after the next frame on the same link and direction (or after
        /// `RelayNetwork.reorderTimeout` if none follows).
        case reorder
        /// The frame waits until `RelayNetwork.release(hold:)` is called with this tag.
        case hold(String)
        /// An EVENT to a relay is answered `OK false "<prefix>: <message>"` without reaching it.
        case reject(prefix: MachineReadablePrefix, message: String)
        /// An EVENT reaches the relay and is stored, but the OK to the publisher is lost.
        case withholdOK
        /// The frame's member stops (its app is killed) and starts again `down` later: a frame to
        /// a relay reaches it first (it was written to the socket), its answer dies with the
        /// connection; a frame to the member is lost with its connection as it arrives. The world
        /// carries the restart out (`RelayNetwork.takeRestartRequests()`).
        case restart(down: VirtualDuration)
        /// A hostile relay (issue 30), eclipsing one member: an EVENT the member publishes is
        /// answered `OK true` as if stored, but never reaches the relay, so nobody else ever sees
        /// it. The member cannot tell from the relay's answer.
        case swallow
        /// A hostile relay (issue 30) serving one member a stale history: every event the relay
        /// receives after the rule is installed is withheld from the member, live and in stored
        /// results, without closing its connection. What the member does get is validly signed
        /// and was really published; it is only old.
        case stale
    }

    /// Which matches of the selector the action applies to.
    package enum Occurrences: Hashable, Sendable {
        /// Every match.
        case all
        /// Only the nth match (from 1).
        case nth(Int)
        /// The first n matches.
        case first(Int)
    }

    package var scope: Scope
    package var direction: Direction
    package var selector: FrameSelector
    package var action: Action
    package var occurrences: Occurrences

    /// A rule; by default it applies to every matching frame in both directions.
    package init(
        scope: Scope = .everywhere, direction: Direction = .both, selector: FrameSelector = FrameSelector(),
        action: Action, occurrences: Occurrences = .all
    ) {
        self.scope = scope
        self.direction = direction
        self.selector = selector
        self.action = action
        self.occurrences = occurrences
    }
}

/// Selects frames by meaning. Every condition set must hold; with none set, every frame matches.
/// Event conditions match frames that carry an event (client EVENT, relay EVENT).
package struct FrameSelector: Hashable, Sendable {
    /// Frame verbs, e.g. `["EVENT"]`, `["REQ"]`, `["OK"]`.
    package var verbs: Set<String>?
    /// Event kinds.
    package var kinds: Set<Kind>?
    /// Author, by the label registered with `RelayNetwork.register(member:publicKey:)`.
    package var authorLabel: String?
    /// Marmot group: the first value of the event's `h` tag.
    package var group: String?
    /// A tag the event must carry, by name and first value.
    package var tag: TagCondition?

    /// A `name`/first-value pair that an event's tags must contain.
    package struct TagCondition: Hashable, Sendable {
        package var name: String
        package var value: String
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package init(
        verbs: Set<String>? = nil, kinds: Set<Kind>? = nil, authorLabel: String? = nil, group: String? = nil,
        tag: TagCondition? = nil
    ) {
        self.verbs = verbs
        self.kinds = kinds
        self.authorLabel = authorLabel
        self.group = group
        self.tag = tag
    }

    var needsEvent: Bool { kinds != nil || authorLabel != nil || group != nil || tag != nil }

    func matches(verb: String?, event: Event?, authorKeys: [String: String]) -> Bool {
        if let verbs, !verbs.contains(verb ?? "") { return false }
        guard needsEvent else { return true }
        guard let event else { return false }
        if let kinds, !kinds.contains(event.kind) { return false }
        if let authorLabel, authorKeys[authorLabel] != event.pubkey.hex { return false }
        if let group, event.firstTagValue("h") != group { return false }
        if let tag, !event.tags.contains(where: { $0.count >= 2 && $0[0] == tag.name && $0[1] == tag.value }) {
            return false
        }
        return true
    }
}

// How a fault rule is written into the trace (`install … on … …` and `mark … for …` lines): our
// own words per case, never the compiler's description of the value (docs/trace-vocabulary.md).
extension FaultRule.Action {
    package var traceText: String {
        switch self {
        case .drop: "drop"
        case .delay(let duration): "delay \(duration.microseconds) us"
        case .duplicate: "duplicate"
        case .reorder: "reorder"
        case .hold(let tag): "hold \(TraceWords.quoted(tag))"
        case .reject(let prefix, let message): "reject \(TraceWords.quoted(prefix.word)) \(TraceWords.quoted(message))"
        case .withholdOK: "withhold-ok"
        case .restart(let down): "restart down \(down.microseconds) us"
        case .swallow: "swallow"
        case .stale: "stale"
        }
    }
}

extension FaultRule.Scope {
    package var traceText: String {
        switch self {
        case .everywhere: "everywhere"
        case .relay(let relay): "relay \(relay)"
        case .member(let member): "member \(member)"
        case .link(let member, let relay): "link \(member)->\(relay)"
        }
    }
}

extension FaultRule.Direction {
    package var traceText: String {
        switch self {
        case .toRelay: "to-relay"
        case .toMember: "to-member"
        case .both: "both-ways"
        }
    }
}

/// Quoting for the fault lines' free-text values (tags, reject messages), as GroupCore's
/// `TraceText.quoted` quotes action parameters.
enum TraceWords {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
