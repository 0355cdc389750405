import DeterministicScheduler

// A WebSocket runs over TCP, which delivers a connection's bytes in order or not at all: a frame
// from a relay cannot vanish while the frames after it arrive. A relay that cannot deliver to a
// client closes the connection rather than skip a frame (our WebSocket front drops a client that
// leaves 4 MiB unread; strfry closes slow consumers likewise). So a frame lost on its way to a
// member is lost with its connection: the relay forgets the connection's subscriptions and
// authentication, whatever was still in flight on it is lost too, and the member is told (the
// close frame, or the socket error), as when the relay goes down. A frame lost on its way to a
// relay stays a single lost frame: the relay never answers that EVENT (no OK), which clients
// must survive anyway, since nothing makes a relay keep NIP-01's "MUST answer" (docs/nostr-relay-semantics.md,
// "Lost frames").
extension RelayNetwork {
    /// The connection `transit` travels on is closed: the relay forgets it and the member is told.
    mutating func breakConnection(of transit: Transit) {
        guard var host = hosts[transit.relay], let connection = transit.connection,
            host.connections[transit.member] == connection
        else { return }
        host.connections[transit.member] = nil
        host.disconnect(connection)
        hosts[transit.relay] = host
        brokenConnections.insert(connection)
        scheduler.record("fault", "\(transit.relay)->\(transit.member)", "connection \(connection) closed with the lost frame")
        inboxes[transit.member, default: []].append(Delivery(relay: transit.relay, time: scheduler.now, content: .connectionLost))
    }

    /// A frame reaches its member, unless the connection it travelled on was broken meanwhile.
    mutating func arriveAtMember(_ transit: Transit) {
        let link = "\(transit.relay)->\(transit.member)"
        if let connection = transit.connection, brokenConnections.contains(connection) {
            scheduler.record("lost", link, "connection \(connection) closed: \(transit.summary)")
            return
        }
        if case .restart(let down)? = transit.effect {
            // Lost with the connection of a member that stops as it arrives.
            scheduler.record("lost", link, "its member stops: \(transit.summary)")
            return requestRestart(of: transit.member, down: down, after: transit)
        }
        let content = Delivery.Content.frame(transit.frame, transit.meaning ?? .notice)
        inboxes[transit.member, default: []].append(Delivery(relay: transit.relay, time: scheduler.now, content: content))
        scheduler.record("arrive", link, transit.summary)
    }
}
