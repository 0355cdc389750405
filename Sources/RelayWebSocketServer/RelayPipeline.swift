import NIOCore
import NIOWebSocket

/// The handlers of an upgraded connection, in order; one place so that tests build the same
/// pipeline on an `EmbeddedChannel`.
enum RelayPipeline {
    /// A message may arrive in up to this many fragments.
    static let maximumFragments = 64

    static func handlers(hub: RelayHub, maximumMessageBytes: Int) -> [any ChannelHandler] {
        [
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: maximumFragments,
                maxAccumulatedFrameSize: maximumMessageBytes),
            RelayFrameHandler(hub: hub),
        ]
    }
}
