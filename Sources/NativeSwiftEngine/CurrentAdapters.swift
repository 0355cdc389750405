import EngineInterface
import HexEncoding
import Marmot
import MLS
import Nostr

// Stand-ins for the Marmot-layer current-profile codecs the engine calls, until the Marmot module
// has its own (the engine is written against these names; when Marmot has them, these go).

// transports/nostr.md "Group message delivery": kind 445 signed by a fresh one-time key, exactly
// one `h` tag (lowercase hex nostr_group_id), content base64(nonce ‖ ChaCha20-Poly1305 output).
enum CurrentGroupEvent {
    static func make(
        nostrGroupID: [UInt8], content: String, createdAt: UInt64, using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> Event {
        let oneTime = Keypair.generate(using: &generator)
        do {
            return try UnsignedEvent(
                pubkey: oneTime.publicKey, createdAt: createdAt, kind: .groupEvent, tags: [["h", nostrGroupID.hexString]],
                content: content
            ).signed(with: oneTime, using: &generator)
        } catch {
            throw MarmotError(.groupEventInvalidTags, "cannot sign the kind-445 event: \(error)")
        }
    }
}
