import ConformanceTestSupport
import DeterministicScheduler
import InMemoryRelay
import Nostr
import Testing

/// One relay plus signing keys and a clock, driven by frame text as a real client would.
struct RelayHarness {
    static let url = "wss://relay.test/"
    static let start: UInt64 = 1_700_000_000

    var relay: Relay
    var generator: TestGenerator
    var now: UInt64 = RelayHarness.start
    let alice: Keypair
    let bob: Keypair
    let carol: Keypair

    init(policy: RelayPolicy = RelayPolicy(), seed: UInt64 = 1) {
        relay = Relay(url: Self.url, policy: policy, generator: SeededGenerator(seed: seed).child("relay"))
        generator = TestGenerator(seed: seed)
        alice = Keypair.generate(using: &generator)
        bob = Keypair.generate(using: &generator)
        carol = Keypair.generate(using: &generator)
    }

    mutating func event(
        _ kind: Kind, by keypair: Keypair? = nil, at offset: Int64 = 0, tags: [[String]] = [], content: String = ""
    ) throws -> Event {
        let createdAt = UInt64(Int64(now) + offset)
        return try UnsignedEvent(pubkey: (keypair ?? alice).publicKey, createdAt: createdAt, kind: kind, tags: tags, content: content)
            .signed(with: keypair ?? alice, using: &generator)
    }

    /// Sends raw frame text and decodes every answer (a relay frame that fails to decode fails the test).
    mutating func send(_ frame: String, on connection: UInt64 = 1) throws -> [(ConnectionID, RelayMessage)] {
        try relay.receive(frame, from: ConnectionID(connection), now: now).map { output in
            (output.connection, try RelayMessage(json: output.frame))
        }
    }

    mutating func publish(_ event: Event, on connection: UInt64 = 1) throws -> [(ConnectionID, RelayMessage)] {
        try send(ClientMessage.event(event).json(), on: connection)
    }

    /// Publishes and returns the OK verdict sent to the publisher.
    @discardableResult
    mutating func ok(_ event: Event, on connection: UInt64 = 1) throws -> (accepted: Bool, message: String) {
        let replies = try publish(event, on: connection)
        for (target, message) in replies where target == ConnectionID(connection) {
            if case .ok(let id, let accepted, let text) = message, id == event.id.hex { return (accepted, text) }
        }
        Issue.record("no OK for \(event.id.hex) in \(replies)")
        return (false, "")
    }

    mutating func request(_ id: SubscriptionID, _ filters: [Filter], on connection: UInt64 = 1) throws
        -> [(ConnectionID, RelayMessage)]
    {
        try send(ClientMessage.request(subscription: id, filters: filters).json(), on: connection)
    }

    /// The ids a REQ returns before its EOSE; records an issue when EOSE is missing.
    mutating func query(_ filters: [Filter], on connection: UInt64 = 90) throws -> [String] {
        let replies = try request("q", filters, on: connection)
        _ = try send(ClientMessage.close("q").json(), on: connection)
        guard case .endOfStoredEvents = replies.last?.1 else {
            Issue.record("REQ did not end with EOSE: \(replies)")
            return []
        }
        return Self.eventIDs(replies)
    }

    static func eventIDs(_ replies: [(ConnectionID, RelayMessage)], subscription: SubscriptionID? = nil, on connection: UInt64? = nil)
        -> [String]
    {
        replies.compactMap { target, message in
            guard case .event(let sub, let event) = message else { return nil }
            if let subscription, sub != subscription { return nil }
            if let connection, target != ConnectionID(connection) { return nil }
            return event.id.hex
        }
    }

    /// A signed NIP-42 AUTH event for this relay's challenge on `connection`.
    mutating func authEvent(
        by keypair: Keypair, on connection: UInt64 = 1, challenge: String? = nil, relayTag: String = RelayHarness.url,
        at offset: Int64 = 0, kind: Kind = .auth
    ) throws -> Event {
        let challenge = challenge ?? relay.challenge(for: ConnectionID(connection))
        return try event(kind, by: keypair, at: offset, tags: [["relay", relayTag], ["challenge", challenge]])
    }

    mutating func authenticate(_ keypair: Keypair, on connection: UInt64 = 1) throws -> (accepted: Bool, message: String) {
        let auth = try authEvent(by: keypair, on: connection)
        let replies = try send(ClientMessage.auth(auth).json(), on: connection)
        guard case .ok(_, let accepted, let message)? = replies.first?.1 else {
            Issue.record("AUTH not answered with OK: \(replies)")
            return (false, "")
        }
        return (accepted, message)
    }
}

/// The machine-readable prefix of an OK or CLOSED message.
func prefix(_ message: String) -> MachineReadablePrefix? { MachineReadablePrefix(of: message) }
