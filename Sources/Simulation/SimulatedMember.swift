import EngineInterface
import GroupCore
import Nostr

/// A simulated member: identity, core, engine, and every update its core emitted.
package struct SimulatedMember: Sendable {
    package let label: String
    package let keypair: Keypair
    /// The engine's storage key, the same at every start (MDK opens its store with it).
    let storageKey: [UInt8]
    /// The member's current core and engine: a restart replaces both (World+Restart.swift).
    package internal(set) var core: GroupCore
    package internal(set) var engine: any ProtocolEngine
    package internal(set) var updates: [AppUpdate] = []
    /// The member's UI host (docs/architecture.md, "The host and `rev`") and the channel its
    /// updates reach it through.
    package internal(set) var host: UpdateHost
    var channel: UpdateChannel
    package var publicKey: PublicKey { keypair.publicKey }
}
