// The relays of one real-lane run (docs/real-network.md): each scenario relay is a real relay
// server (a child process for `run --network real`; a test may serve one in-process), with our
// socket fault proxy in front of it, and the members' sockets (`RelaySockets`) go to the proxies.
// Everything it starts it stops again, on every path: `stop()` closes the sockets, the proxies and
// the relays, and reports what would not stop.
import InMemoryRelay
import RelayWebSocketServer

/// A relay server listening on 127.0.0.1, and how to stop it.
package struct RelayEndpoint: Sendable {
    package let port: Int
    /// Stops the server; what went wrong, or nil.
    package let stop: @Sendable () async -> String?
    package init(port: Int, stop: @escaping @Sendable () async -> String?) {
        self.port = port
        self.stop = stop
    }
}

/// The proxy fault of each member connection: by relay name and the connection's index at that
/// relay's proxy (accept order, from 0).
package typealias ProxyFaultPlan = @Sendable (_ relay: String, _ index: Int) -> SocketFaultProxy.Fault

package final class RelayFleet: Sendable {
    /// The members' sockets, to the proxies.
    package let sockets: RelaySockets
    private let relays: [(name: String, endpoint: RelayEndpoint, proxy: SocketFaultProxy)]

    private init(sockets: RelaySockets, relays: [(name: String, endpoint: RelayEndpoint, proxy: SocketFaultProxy)]) {
        self.sockets = sockets
        self.relays = relays
    }

    /// Starts a relay per name with `starter`, a proxy in front of each with `faults`; on a failure
    /// stops what already started and rethrows.
    package static func start(
        _ names: [String], bounds: RelaySockets.Bounds = RelaySockets.Bounds(), faults: @escaping ProxyFaultPlan = { _, _ in .none },
        starter: @Sendable (String) async throws -> RelayEndpoint
    ) async throws -> RelayFleet {
        var started: [(name: String, endpoint: RelayEndpoint, proxy: SocketFaultProxy)] = []
        do {
            for name in names {
                let endpoint = try await starter(name)
                do {
                    let proxy = try SocketFaultProxy.start(upstreamPort: endpoint.port) { index in faults(name, index) }
                    started.append((name, endpoint, proxy))
                } catch {
                    _ = await endpoint.stop()
                    throw error
                }
            }
        } catch {
            for relay in started {
                try? relay.proxy.stop()
                _ = await relay.endpoint.stop()
            }
            throw error
        }
        let ports = Dictionary(uniqueKeysWithValues: started.map { ($0.name, $0.proxy.port) })
        return RelayFleet(sockets: RelaySockets(ports: ports, bounds: bounds), relays: started)
    }

    /// What each relay's proxy did, per connection in accept order.
    package var proxyRecords: [String: [SocketFaultProxy.ConnectionRecord]] {
        Dictionary(uniqueKeysWithValues: relays.map { ($0.name, $0.proxy.connections) })
    }

    /// One line: the sockets' figures and the proxy faults that acted.
    package func summary() -> String {
        let figures = sockets.figures
        var line =
            "\(relays.count) relay(s), \(figures.connections) connection(s) (\(figures.connectionsEnded) ended), "
            + "\(figures.framesSent) frame(s) / \(figures.bytesSent) B out, \(figures.framesReceived) frame(s) / \(figures.bytesReceived) B in"
        let faulted = relays.flatMap { relay in relay.proxy.connections.filter { $0.fault != .none }.map { "\(relay.name): \($0.fault)" } }
        if !faulted.isEmpty { line += "; proxy faults: " + faulted.prefix(6).joined(separator: ", ") }
        return line
    }

    /// Closes every socket, proxy and relay; what would not stop.
    package func stop() async -> [String] {
        sockets.closeAll()
        var failures: [String] = []
        for relay in relays {
            do { try relay.proxy.stop() } catch { failures.append("proxy of \(relay.name): \(error)") }
            if let failure = await relay.endpoint.stop() { failures.append("relay \(relay.name): \(failure)") }
        }
        return failures
    }
}
