import DeterministicScheduler
import Foundation
import InMemoryRelay
import LoopbackWebSocket
import Nostr
import RelayWebSocketServer
import Testing

/// The relay's help for the real lane (`relay --lane-orders`, docs/fault-proxy.md): an order on a
/// connection makes our relay withhold the OK of the EVENT it names (storing it) or reject it (not
/// storing it). Over a real socket to a real server; our relay answers one connection's frames in
/// order, so what comes before the REQ's EOSE is all the EVENT got. The twin: a server started
/// without the option treats the order as an unknown verb and answers the EVENT `OK true`.
@Suite struct LaneOrderTests {
    static func event(_ content: String) throws -> Event {
        var generator = SeededGenerator(seed: 5)
        let keypair = Keypair.generate(using: &generator)
        return try UnsignedEvent(
            pubkey: keypair.publicKey, createdAt: UInt64(Date().timeIntervalSince1970), kind: Kind(rawValue: 1), content: content
        )
        .signed(with: keypair, using: &generator)
    }

    /// Sends `order` (if any), the EVENT, then a REQ for its id; every frame that came back up to the EOSE.
    static func exchange(orders: Bool, _ order: (Event) -> LaneOrder?) throws -> [RelayMessage] {
        let relay = Relay(url: "ws://test", policy: RelayPolicy(), generator: SeededGenerator(seed: 1).child("relay"))
        let server = try RelayWebSocketServer.start(port: 0, relay: relay, acceptsLaneOrders: orders) {
            UInt64(Date().timeIntervalSince1970)
        }
        defer { try? server.stop() }
        let socket = try LoopbackWebSocket(port: server.port, timeout: 5)
        let event = try Self.event("ordered")
        if let order = order(event) { try socket.send(order.frame) }
        try socket.send(ClientMessage.event(event).json())
        try socket.send(ClientMessage.request(subscription: SubscriptionID("q"), filters: [Filter(ids: [event.id.hex])]).json())
        var messages: [RelayMessage] = []
        for _ in 0..<10 {
            let message = try RelayMessage(json: try socket.receive())
            messages.append(message)
            if case .endOfStoredEvents = message { break }
        }
        return messages
    }

    static func oks(_ messages: [RelayMessage]) -> [Bool] {
        messages.compactMap { if case .ok(_, let accepted, _) = $0 { accepted } else { nil } }
    }

    static func served(_ messages: [RelayMessage]) -> Int {
        messages.filter { if case .event = $0 { true } else { false } }.count
    }

    @Test func withholdStoresTheEventWithoutItsOK() throws {
        let messages = try Self.exchange(orders: true) { .withholdOK(eventID: $0.id.hex) }
        #expect(Self.oks(messages).isEmpty)
        #expect(Self.served(messages) == 1)
    }

    @Test func rejectAnswersOKFalseAndStoresNothing() throws {
        let messages = try Self.exchange(orders: true) { .reject(eventID: $0.id.hex, message: "blocked: by order") }
        #expect(Self.oks(messages) == [false])
        #expect(messages.contains { if case .ok(_, false, "blocked: by order") = $0 { true } else { false } })
        #expect(Self.served(messages) == 0)
    }

    @Test func aRelayWithoutTheOptionIgnoresOrders() throws {
        let messages = try Self.exchange(orders: false) { .withholdOK(eventID: $0.id.hex) }
        #expect(Self.oks(messages) == [true])
        #expect(Self.served(messages) == 1)
    }

    @Test func anOrderFrameRoundTrips() throws {
        let id = String(repeating: "ab", count: 32)
        for order in [LaneOrder.withholdOK(eventID: id), .reject(eventID: id, message: "blocked: x")] {
            #expect(LaneOrder(frame: order.frame) == order)
        }
        #expect(LaneOrder(frame: "[\"EVENT\",{}]") == nil)
        #expect(LaneOrder(frame: "[\"\(LaneOrder.verb)\",{\"event\":\"short\",\"do\":\"reject\"}]") == nil)
    }
}
