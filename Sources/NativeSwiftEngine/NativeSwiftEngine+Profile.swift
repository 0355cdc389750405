import EngineInterface
import HexEncoding
import Marmot
import MLS
import Nostr

// What differs between the two profiles at the engine's seams (docs/native-engine.md, "Current profile").
extension NativeSwiftEngine {
    /// The kind-445 envelope of `profile`.
    ///
    /// legacy (MIP-03 as MDK 0.8.0): `h` and `["encoding","base64"]`.
    /// current (transports/nostr.md "Group message delivery"): exactly one `h` tag and nothing else
    /// (an `expiration` tag only for application messages of a group with retention, which we never
    /// enable); the event signed by a fresh one-time key either way.
    static func envelope(
        _ profile: MarmotProfile, nostrGroupID: [UInt8], content: String, createdAt: UInt64,
        using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> Event {
        switch profile {
        case .legacy:
            return try GroupEventEnvelope.make(nostrGroupID: nostrGroupID, content: content, createdAt: createdAt, using: &generator)
        case .current:
            return try CurrentGroupEvent.make(nostrGroupID: nostrGroupID, content: content, createdAt: createdAt, using: &generator)
        }
    }
}
