import EngineInterface
import MLS
import Marmot
import Nostr

// What differs between the two profiles at the kind-445 seam (docs/native-engine.md, "Current profile").
extension NativeSwiftEngine {
    /// `bytes` (a TLS MLSMessage) encrypted under `record`'s current epoch key in the kind-445
    /// envelope of our profile, signed by a fresh one-time key; dated now unless `createdAt` says.
    ///
    /// legacy (MIP-03 as MDK 0.8.0): `h` and `["encoding","base64"]`.
    /// current (transports/nostr.md "Group message delivery"): exactly one `h` tag (an `expiration`
    /// only for application messages of a group with retention, which we never enable).
    /// Both draw the nonce, then the one-time key, from our generator.
    func seal(bytes: [UInt8], in record: GroupRecord, createdAt: UInt64? = nil) throws(EngineError) -> Event {
        let now = createdAt ?? clock()
        let profile = profile
        return try marmotStep { () throws(MarmotError) in
            let key = GroupEventKey.of(record.mls)
            switch profile {
            case .legacy:
                let content = try GroupEventCipher.seal(bytes, key: key, using: &random)
                return try GroupEventEnvelope.make(
                    nostrGroupID: record.data.nostrGroupID, content: content, createdAt: now, using: &random)
            case .current:
                return try CurrentGroupEvent.seal(
                    bytes, key: key, nostrGroupID: record.data.nostrGroupID, createdAt: now, using: &random)
            }
        }
    }
}
