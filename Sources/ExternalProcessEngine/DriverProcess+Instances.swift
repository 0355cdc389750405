import EngineInterface
import Nostr

extension DriverProcess {
    /// The engine's name, version and capabilities (`hello`).
    public func capabilities() async throws(EngineError) -> EngineCapabilities {
        let reply = DriverReply(.hello, try await call(.hello))
        return EngineCapabilities(
            name: try reply.string("name"),
            version: try reply.string("version"),
            capabilities: Set(try reply.strings("capabilities").map(EngineCapability.init(rawValue:)))
        )
    }

    /// Creates an engine instance (one member) inside this driver.
    /// - Parameters:
    ///   - instance: its name, unique within the driver.
    ///   - encryptionKey: 32 bytes for the instance's encrypted storage, so runs are reproducible.
    ///   - config: engine time/epoch windows by protocol name (e.g. `max_past_epochs`).
    public func makeEngine(instance: String, encryptionKey: [UInt8], config: [String: Int] = [:])
        async throws(EngineError) -> ExternalProcessEngine
    {
        guard encryptionKey.count == 32 else {
            throw EngineError(.badRequest, "encryption key must be 32 bytes, got \(encryptionKey.count)")
        }
        let reply = DriverReply(.createInstance, try await call(.createInstance, [
            "instance": .string(instance),
            "encryption_key": .string(encryptionKey.hexString),
            "config": .object(config.mapValues { JSONValue($0) }),
        ]))
        return ExternalProcessEngine(driver: self, instance: try reply.string("instance"))
    }

    /// Deletes an instance and its storage.
    public func destroy(_ engine: ExternalProcessEngine) async throws(EngineError) {
        _ = try await call(.destroyInstance, ["instance": .string(engine.instance)])
    }
}
