import DeterministicScheduler
import Nostr

/// A Nostr relay as a sans-I/O state machine: frames in, frames out, time passed in.
///
/// It implements the relay rules of `nostr-relay-semantics.md` §3 (R1–R21): NIP-01 storage by kind
/// class, queries and live subscriptions; NIP-09 deletion; NIP-40 expiration against the world
/// clock; NIP-42 AUTH; NIP-70 protected events; NIP-59 gift-wrap routing by `p`. It has no
/// threads, sockets or clocks, so a world can replay it exactly; `RelayNetwork` and the WebSocket
/// front carry its frames.
///
/// ```swift
/// var relay = Relay(url: "ws://relay.test", generator: SeededGenerator(seed: 1).child("relay"))
/// let out = relay.receive(#"["REQ","s",{"kinds":[1]}]"#, from: ConnectionID(1), now: 1_700_000_000)
/// // out: [EOSE] for connection 1
/// ```
package struct Relay: Sendable {
    /// The relay's URL; NIP-42 AUTH events must name its host in their `relay` tag.
    package let url: String
    /// Optional rules and limits.
    package var policy: RelayPolicy
    /// When true, notable decisions (stored, replaced, deleted, refused) are appended to `journal`.
    package var keepsJournal = true
    /// Decisions since the last `drainJournal()`, for the world trace.
    package private(set) var journal: [String] = []

    var store = EventStore()
    var subscriptions = SubscriptionIndex()
    var connections: [ConnectionID: ConnectionState] = [:]
    private var challengeSource: SeededGenerator

    /// A relay with no events and no connections; `generator` supplies the NIP-42 challenges.
    package init(url: String, policy: RelayPolicy = RelayPolicy(), generator: SeededGenerator) {
        self.url = url
        self.policy = policy
        challengeSource = generator
    }

    /// Number of events currently stored.
    package var storedEventCount: Int { store.count }

    /// Stored events matching any of `filters` at `now`, in NIP-01 order (per-filter limits
    /// applied), as a REQ would return them (ignoring NIP-59 AUTH gating).
    package func storedEvents(matching filters: [Filter], now: UInt64) -> [Event] {
        // The world's own look-ups (oracles, inject) are not a client's frame: no budget.
        var budget = ScanBudget.unlimited
        do { return try query(filters, now: now, for: nil, budget: &budget).map(\.event) } catch {
            fatalError("an unlimited scan budget ran out")
        }
    }

    /// Returns the journal and empties it.
    package mutating func drainJournal() -> [String] {
        defer { journal.removeAll(keepingCapacity: true) }
        return journal
    }

    /// Registers a new connection (implicit on its first frame) and returns the frames to send it:
    /// the NIP-42 challenge when the policy says to send it up front.
    @discardableResult
    package mutating func connect(_ connection: ConnectionID) -> [RelayOutput] {
        _ = state(of: connection)
        guard policy.sendsChallengeOnConnect else { return [] }
        return [authChallenge(to: connection)]
    }

    /// Forgets a connection, its subscriptions and its authentication.
    package mutating func disconnect(_ connection: ConnectionID) {
        subscriptions.removeAll(for: connection)
        connections[connection] = nil
    }

    /// The NIP-42 challenge of `connection` (created on first use).
    package mutating func challenge(for connection: ConnectionID) -> String {
        state(of: connection).challenge
    }

    /// Public keys that `connection` has authenticated as (NIP-42).
    package func authenticatedKeys(of connection: ConnectionID) -> Set<String> {
        connections[connection]?.authenticated ?? []
    }

    /// Handles one text frame from `connection` at Unix time `now` and returns every frame to send
    /// as a result, to that connection or (for live events) to others. Never throws: malformed
    /// input is answered with OK false, CLOSED or NOTICE and the connection stays usable.
    package mutating func receive(_ frame: String, from connection: ConnectionID, now: UInt64) -> [RelayOutput] {
        _ = state(of: connection)
        guard policy.answers else {
            record("hung: no answer")
            return []
        }
        guard frame.utf8.count <= policy.maximumFrameBytes else {
            record("refuse frame of \(frame.utf8.count) bytes")
            return [
                notice(
                    MachineReadablePrefix.invalid.message(
                        "frame of \(frame.utf8.count) bytes exceeds the limit of \(policy.maximumFrameBytes)"), to: connection)
            ]
        }
        let value: JSONValue
        do { value = try JSONValue(parsing: frame) } catch {
            record("refuse non-JSON frame")
            return [notice(MachineReadablePrefix.invalid.message("not JSON: \(error.reason)"), to: connection)]
        }
        let message: ClientMessage
        do { message = try ClientMessage(jsonValue: value) } catch {
            return refuseMalformed(value, error, from: connection)
        }
        return handle(message, from: connection, now: now)
    }

    /// Handles an already decoded (and therefore verified) client message.
    package mutating func handle(_ message: ClientMessage, from connection: ConnectionID, now: UInt64) -> [RelayOutput] {
        _ = state(of: connection)
        guard policy.answers else {
            record("hung: no answer")
            return []
        }
        switch message {
        case .event(let event): return publish(event, from: connection, now: now)
        case .request(let id, let filters): return subscribe(SubscriptionKey(connection: connection, id: id), filters, now: now)
        case .count(let id, let filters): return count(SubscriptionKey(connection: connection, id: id), filters, now: now)
        case .close(let id):
            subscriptions.remove(SubscriptionKey(connection: connection, id: id))
            return []
        case .auth(let event): return authenticate(event, on: connection, now: now)
        }
    }

    /// Answers a frame that failed to decode on the channel its sender waits on (R2, R13, R14).
    private mutating func refuseMalformed(_ value: JSONValue, _ error: NostrError, from connection: ConnectionID)
        -> [RelayOutput]
    {
        let hint = MalformedFrameHint(jsonValue: value)
        let text = MachineReadablePrefix.invalid.message(error.reason)
        record("refuse malformed \(hint.verb ?? "frame"): \(error.code)")
        switch hint.verb {
        case "EVENT", "AUTH":
            return [ok(hint.eventID ?? "", accepted: false, text, to: connection)]
        case "REQ", "COUNT":
            guard let id = hint.subscription else { return [notice(text, to: connection)] }
            return [closed(SubscriptionID(id), text, to: connection)]
        default:
            return [notice(text, to: connection)]
        }
    }

    mutating func state(of connection: ConnectionID) -> ConnectionState {
        if let existing = connections[connection] { return existing }
        let fresh = ConnectionState(challenge: challengeSource.next().paddedHex + challengeSource.next().paddedHex)
        connections[connection] = fresh
        return fresh
    }

    mutating func record(_ decision: @autoclosure () -> String) {
        if keepsJournal { journal.append(decision()) }
    }
}

/// Per-connection state: the NIP-42 challenge and the keys authenticated with it.
struct ConnectionState: Sendable {
    let challenge: String
    /// R20: every key that completed AUTH on this connection counts.
    var authenticated: Set<String> = []
}

extension UInt64 {
    /// 16 lower-case hex digits.
    fileprivate var paddedHex: String {
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
