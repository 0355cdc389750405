import InMemoryRelay
import NIOCore
import NIOHTTP1
import Nostr

/// NIP-11: an HTTP request that is not a WebSocket upgrade gets the relay information document
/// (`application/nostr+json`), with the limits the relay enforces, so that clients and operators
/// can read them instead of discovering them by refusal.
final class RelayInformationHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let hub: RelayHub

    init(hub: RelayHub) {
        self.hub = hub
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let body = Self.document(hub.policy, maximumPendingBytes: hub.maximumPendingBytes).serialized()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/nostr+json")
        headers.add(name: "Access-Control-Allow-Origin", value: "*")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// The document for `policy`: the NIPs the relay core implements and its limits.
    static func document(_ policy: RelayPolicy, maximumPendingBytes: Int) -> JSONValue {
        .object([
            "name": .string("marmot-conform"),
            "description": .string("In-memory Nostr relay of the marmot-conform conformance suite (loopback only)."),
            "software": .string(RelayWebSocketServer.software),
            "supported_nips": .array([1, 9, 11, 40, 42, 45, 59, 70].map { JSONValue($0) }),
            "limitation": .object([
                "max_message_length": JSONValue(policy.maximumFrameBytes),
                "max_content_length": JSONValue(policy.maximumEventBytes),
                "max_subscriptions": JSONValue(policy.maximumSubscriptionsPerConnection),
                "max_filters": JSONValue(policy.maximumFiltersPerRequest),
                "auth_required": .bool(false),
                "restricted_writes": .bool(!policy.acceptsProtectedEvents),
            ]),
        ])
    }
}
