import DeterministicScheduler

/// A restart a fault rule asked for: the world stops `member` now and starts it `down` later.
package struct RestartRequest: Hashable, Sendable {
    package let member: String
    package let down: VirtualDuration
}

// A member whose app stops loses its sockets as a killed process does: the relays see the
// connections close (and forget their subscriptions and authentication), frames still in flight on
// them to the member are lost, and so are frames it had sent that have not reached their relay
// (they were in its process's buffers, or died with the connection). When it starts again it opens
// new connections, as any client does on its first send.
extension RelayNetwork {
    /// Stops `member`'s network side: every connection closes, frames in flight to or from it are
    /// lost, and deliveries not yet taken are dropped (a stopped app reads nothing).
    package mutating func stop(_ member: String) {
        incarnations[member, default: 0] += 1
        scheduler.record("fault", member, "stopped (restart \(incarnations[member] ?? 0))")
        for name in hosts.keys.sorted() {
            guard var host = hosts[name], let connection = host.connections.removeValue(forKey: member) else { continue }
            host.disconnect(connection)
            hosts[name] = host
            brokenConnections.insert(connection)
        }
        inboxes[member] = nil
    }

    /// Whether a fault rule asked for a restart the world has not taken yet.
    package var hasRestartRequests: Bool { !restartRequests.isEmpty }

    /// The restarts fault rules asked for since the last call, in the order they were asked.
    package mutating func takeRestartRequests() -> [RestartRequest] {
        defer { restartRequests = [] }
        return restartRequests
    }

    mutating func requestRestart(of member: String, down: VirtualDuration, after transit: Transit) {
        scheduler.record("fault", member, "restart after \(transit.summary), down \(down.microseconds) us")
        restartRequests.append(RestartRequest(member: member, down: down))
    }
}
