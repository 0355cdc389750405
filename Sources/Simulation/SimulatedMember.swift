import EngineInterface
import GroupCore
import Nostr

/// A simulated member: identity, core, engine, and every update its core emitted.
public struct SimulatedMember: Sendable {
    public let label: String
    public let keypair: Keypair
    public let core: GroupCore
    public let engine: any ProtocolEngine
    public internal(set) var updates: [AppUpdate] = []
    public var publicKey: PublicKey { keypair.publicKey }
}
