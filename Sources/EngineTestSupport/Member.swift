import EngineInterface
import Nostr

/// A simulated member: a Nostr identity plus its own engine instance (native or driven).
package struct Member: Sendable {
    package let name: String
    package let keypair: Keypair
    package let engine: any ProtocolEngine

    package init(name: String, keypair: Keypair, engine: any ProtocolEngine) {
        self.name = name
        self.keypair = keypair
        self.engine = engine
    }

    package var pubkey: PublicKey { keypair.publicKey }
}
