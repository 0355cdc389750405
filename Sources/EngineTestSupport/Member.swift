import EngineInterface
import Nostr

/// A simulated member: a Nostr identity plus its own engine instance (native or driven).
public struct Member: Sendable {
    public let name: String
    public let keypair: Keypair
    public let engine: any ProtocolEngine

    public init(name: String, keypair: Keypair, engine: any ProtocolEngine) {
        self.name = name
        self.keypair = keypair
        self.engine = engine
    }

    public var pubkey: PublicKey { keypair.publicKey }
}
