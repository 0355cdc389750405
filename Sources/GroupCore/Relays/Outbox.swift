import Nostr

/// Chat messages, control messages and welcomes that could not reach a relay (we were offline, or it was down), by relay URL:
/// they are sent again, as the same signed event, as soon as the relay can be reached.
struct Outbox: Sendable, Codable {
    private var waiting: [String: [Event]] = [:]
    /// Our chat-message events no relay has accepted or refused yet, by id.
    private var inFlight: [String: Event] = [:]
    /// The relays each event is for, and how often it was sent again after every relay refused it.
    private var relays: [String: [String]] = [:]
    private var retries: [String: Int] = [:]

    mutating func track(_ event: Event, relays: [String] = []) {
        inFlight[event.id.hex] = event
        self.relays[event.id.hex] = relays
    }

    /// The message is settled (accepted somewhere, or refused everywhere): nothing to resend.
    mutating func forget(_ eventID: String) {
        inFlight[eventID] = nil
        relays[eventID] = nil
        retries[eventID] = nil
    }

    func relays(of eventID: String) -> [String] { relays[eventID] ?? [] }

    /// Counts one more send after a refusal by every relay; returns how many there were before it.
    mutating func countRetry(_ eventID: String) -> Int {
        defer { retries[eventID, default: 0] += 1 }
        return retries[eventID] ?? 0
    }

    func event(_ eventID: String) -> Event? { inFlight[eventID] }

    mutating func hold(_ event: Event, for url: String) {
        guard !(waiting[url] ?? []).contains(where: { $0.id == event.id }) else { return }
        waiting[url, default: []].append(event)
    }

    /// Takes every event waiting for `url`, oldest first.
    mutating func take(for url: String) -> [Event] {
        waiting.removeValue(forKey: url) ?? []
    }

    func isWaiting(for url: String) -> Bool { !(waiting[url] ?? []).isEmpty }

    /// Whether the event waits for some relay to be reachable again.
    func isHolding(_ eventID: String) -> Bool {
        waiting.values.contains { $0.contains { $0.id.hex == eventID } }
    }
}
