import Nostr

extension Relay {
    /// NIP-42 AUTH: checks a kind 22242 event against this connection's challenge, this relay's
    /// URL and the clock, and answers OK (R19). Every key that passes is added (R20).
    mutating func authenticate(_ event: Event, on connection: ConnectionID, now: UInt64) -> [RelayOutput] {
        let id = event.id.hex
        func refuse(_ text: String) -> [RelayOutput] {
            record("refuse AUTH \(id.prefix(8)): \(text)")
            return [ok(id, accepted: false, MachineReadablePrefix.authRequired.message(text), to: connection)]
        }
        guard event.kind == .auth else { return refuse("AUTH event must be kind 22242") }
        let state = state(of: connection)
        guard event.firstTagValue("challenge") == state.challenge else {
            return refuse("challenge tag does not match the challenge of this connection")
        }
        guard let named = event.firstTagValue("relay"), RelayURL.sameHost(named, url) else {
            return refuse("relay tag does not name this relay")
        }
        let distance = event.createdAt > now ? event.createdAt - now : now - event.createdAt
        guard distance <= policy.authTimeWindow else {
            return refuse("created_at is more than \(policy.authTimeWindow) s from the relay's clock")
        }
        connections[connection]?.authenticated.insert(event.pubkey.hex)
        record("authenticate \(connection) as \(event.pubkey.hex.prefix(8))")
        return [ok(id, accepted: true, "", to: connection)]
    }
}

/// NIP-42 says the `relay` tag check may be a domain match; this compares the host part of two
/// relay URLs (scheme, port, path and letter case ignored).
enum RelayURL {
    static func host(of url: String) -> Substring {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == ":" || $0 == "?" }) { rest = rest[..<end] }
        return rest
    }

    static func sameHost(_ a: String, _ b: String) -> Bool {
        let hostA = host(of: a)
        return !hostA.isEmpty && hostA.lowercased() == host(of: b).lowercased()
    }
}
