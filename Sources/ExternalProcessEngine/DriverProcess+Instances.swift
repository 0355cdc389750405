import DriverProtocol
import EngineInterface
import Nostr

extension DriverProcess {
    /// The engine's name, version and capabilities (`hello`).
    package func capabilities() async throws(EngineError) -> EngineCapabilities {
        try DriverReply(.hello, try await call(.hello)).engineCapabilities()
    }

    /// Refuses a driver that cannot run its engine on the world's clock and seed: its `hello` must
    /// list `world.virtual_clock` and `world.seeded_random` (docs/driver-protocol.md, "Determinism").
    /// - Throws: `.worldUnavailable` naming what is missing.
    package func requireWorld() async throws(EngineError) {
        let offered = try await capabilities().capabilities
        let missing = Self.worldCapabilities.filter { !offered.contains($0) }.map(\.rawValue)
        guard missing.isEmpty else {
            throw EngineError(
                .worldUnavailable,
                "the driver does not run its engine on the world's clock and seed "
                    + "(hello lacks \(missing.joined(separator: ", "))): its world shim is not preloaded")
        }
    }

    static let worldCapabilities = [EngineCapability(rawValue: "world.virtual_clock"), EngineCapability(rawValue: "world.seeded_random")]

    /// Creates an engine instance (one member) inside this driver.
    /// - Parameters:
    ///   - instance: its name, unique within the driver.
    ///   - encryptionKey: 32 bytes for the instance's encrypted storage, so runs are reproducible.
    ///   - config: engine time/epoch windows by protocol name (e.g. `max_past_epochs`).
    ///   - world: the member's clock and seeded stream; every request of the instance (this one
    ///     included: it seeds the engine's own generators) then carries them.
    ///   - directory: where the instance keeps its store (absolute; a member that restarts): reopened
    ///     when a store is there, kept after `close(_:)`. Nil: a fresh store the driver owns.
    package func makeEngine(
        instance: String, encryptionKey: [UInt8], config: [String: Int] = [:], world: WorldFeed? = nil, directory: String? = nil
    ) async throws(EngineError) -> ExternalProcessEngine {
        guard encryptionKey.count == 32 else {
            throw EngineError(.badRequest, "encryption key must be 32 bytes, got \(encryptionKey.count)")
        }
        var params: [String: JSONValue] = [
            "instance": .string(instance),
            "encryption_key": .string(encryptionKey.hexString),
            "config": .object(config.mapValues { JSONValue($0) }),
        ]
        if let directory { params["directory"] = .string(directory) }
        let reply = DriverReply(.createInstance, try await call(.createInstance, params, world: world?.stamp(for: .createInstance)))
        return ExternalProcessEngine(driver: self, instance: try reply.string("instance"), world: world)
    }

    /// Closes an instance and keeps its store (made with a `directory`): the member's app stopped.
    package func close(_ engine: ExternalProcessEngine) async throws(EngineError) {
        _ = try await call(.closeInstance, ["instance": .string(engine.instance)], world: engine.world?.stamp(for: .closeInstance))
    }

    /// Deletes an instance and its storage.
    package func destroy(_ engine: ExternalProcessEngine) async throws(EngineError) {
        _ = try await call(.destroyInstance, ["instance": .string(engine.instance)], world: engine.world?.stamp(for: .destroyInstance))
    }
}
