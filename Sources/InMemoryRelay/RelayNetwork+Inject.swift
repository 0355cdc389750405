import Nostr

extension RelayNetwork {
    /// Hands `event` to `member` as relay `relay` would push it on the member's matching live
    /// subscriptions, without the relay storing or verifying it (a corrupting relay or path). The
    /// frames travel the link like any other (latency, jitter, faults). Returns how many frames
    /// were sent: zero when the member has no connection or no matching subscription there.
    @discardableResult
    package mutating func handOver(_ event: Event, to member: String, via relay: String) -> Int {
        guard let host = hosts[relay], host.isUp, let connection = host.connections[member] else {
            scheduler.record("inject", "\(relay)->\(member)", "not connected: \(event.id.hex.prefix(8)) not handed over")
            return 0
        }
        let frames = host.relay.liveEventFrames(for: event, to: connection)
        scheduler.record("inject", "\(relay)->\(member)", "\(event.id.hex.prefix(8)) kind \(event.kind) on \(frames.count) subscription(s)")
        for output in frames {
            route(Transit(member: member, relay: relay, toRelay: false, frame: output.frame, meaning: output.meaning))
        }
        return frames.count
    }
}
