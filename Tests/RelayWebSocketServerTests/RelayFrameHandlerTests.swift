import DeterministicScheduler
import InMemoryRelay
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Nostr
import Testing

@testable import RelayWebSocketServer

/// The upgraded pipeline (swift-nio's frame aggregator, then our handler) on an `EmbeddedChannel`:
/// what a real client's frames do, without sockets.
@Suite struct RelayFrameHandlerTests {
    private static func pipeline(maximumMessageBytes: Int = 1 << 16, policy: RelayPolicy = RelayPolicy()) throws -> EmbeddedChannel {
        let relay = Relay(url: "ws://127.0.0.1/", policy: policy, generator: SeededGenerator(seed: 1).child("relay"))
        let hub = RelayHub(relay: relay, maximumPendingBytes: 1 << 20, clock: { 1_700_000_000 })
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers(RelayPipeline.handlers(hub: hub, maximumMessageBytes: maximumMessageBytes))
        return channel
    }

    private static func frame(_ channel: EmbeddedChannel, _ text: String, opcode: WebSocketOpcode = .text, fin: Bool = true)
        -> WebSocketFrame
    {
        WebSocketFrame(fin: fin, opcode: opcode, data: channel.allocator.buffer(string: text))
    }

    /// Every text frame the relay wrote back.
    private static func answers(_ channel: EmbeddedChannel) throws -> [String] {
        var out: [String] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .text)
            out.append(String(buffer: frame.data))
        }
        return out
    }

    @Test func aWholeTextFrameReachesTheRelay() throws {
        let channel = try Self.pipeline()
        try channel.writeInbound(Self.frame(channel, #"["REQ","s",{"kinds":[1]}]"#))
        #expect(try Self.answers(channel) == [#"["EOSE","s"]"#])
    }

    @Test func fragmentsAreJoinedIntoOneMessage() throws {
        let channel = try Self.pipeline()
        try channel.writeInbound(Self.frame(channel, #"["REQ","s","#, fin: false))
        #expect(try Self.answers(channel).isEmpty)
        try channel.writeInbound(Self.frame(channel, #"{"kinds":[1]}"#, opcode: .continuation, fin: false))
        try channel.writeInbound(Self.frame(channel, "]", opcode: .continuation))
        #expect(try Self.answers(channel) == [#"["EOSE","s"]"#])
    }

    @Test func aMessageOverTheBoundClosesTheConnection() throws {
        let channel = try Self.pipeline(maximumMessageBytes: 64)
        try channel.writeInbound(Self.frame(channel, String(repeating: "x", count: 40), fin: false))
        try channel.writeInbound(Self.frame(channel, String(repeating: "y", count: 40), opcode: .continuation))
        #expect(!channel.isActive)
    }

    @Test func aContinuationWithoutAStartClosesTheConnection() throws {
        let channel = try Self.pipeline()
        try channel.writeInbound(Self.frame(channel, "]", opcode: .continuation))
        #expect(!channel.isActive)
    }

    @Test func pingIsAnsweredWithItsPayload() throws {
        let channel = try Self.pipeline()
        try channel.writeInbound(Self.frame(channel, "are you there", opcode: .ping))
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong)
        #expect(String(buffer: pong.data) == "are you there")
    }

    /// Counts the reads that reach the socket end of the pipeline.
    private final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// Backpressure: a client that does not take our answers is not read from until it does.
    @Test func readingStopsWhileTheClientIsNotTakingAnswers() throws {
        let channel = try Self.pipeline()
        let counter = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(counter, position: .first)
        channel.read()
        #expect(counter.reads == 1)
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        channel.read()
        channel.read()
        #expect(counter.reads == 1)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(counter.reads == 2)
    }

    @Test func theInformationDocumentStatesTheEnforcedLimits() throws {
        let policy = RelayPolicy(maximumSubscriptionsPerConnection: 7, maximumFiltersPerRequest: 3)
        let document = try #require(RelayInformationHandler.document(policy, maximumPendingBytes: 1).object)
        let limits = try #require(document["limitation"]?.object)
        #expect(limits["max_filters"] == JSONValue(3))
        #expect(limits["max_subscriptions"] == JSONValue(7))
        #expect(document["supported_nips"]?.array?.contains(JSONValue(11)) == true)
    }

    /// The limits it states are the ones the relay applies: one filter more is refused.
    @Test func theStatedFilterLimitIsEnforced() throws {
        let channel = try Self.pipeline(policy: RelayPolicy(maximumFiltersPerRequest: 2))
        try channel.writeInbound(Self.frame(channel, #"["REQ","s",{"kinds":[1]},{"kinds":[2]},{"kinds":[3]}]"#))
        let answers = try Self.answers(channel)
        #expect(answers.count == 1 && answers[0].hasPrefix(#"["CLOSED","s","rate-limited:"#))
    }
}
