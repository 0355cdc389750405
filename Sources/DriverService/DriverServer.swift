import EngineInterface
import Nostr

/// The driver side of docs/driver-protocol.md: serves engine instances made by a factory to a
/// client over JSON lines (the peer of ``ExternalProcessEngine``). `marmot-conform driver swift`
/// serves our own engine with it, which proves the protocol carries everything the runner needs.
///
/// Requests are served one at a time, in the order they arrive; every line gets exactly one
/// response line. The engines run on the world of each request (``RequestWorld``).
package actor DriverServer {
    /// Makes one instance's engine on its world.
    package typealias Factory = @Sendable (RequestWorld) -> any ProtocolEngine
    /// Makes an instance whose state lives in a directory (a member that restarts).
    package typealias Reopen = @Sendable (RequestWorld, _ directory: String) throws(EngineError) -> any ProtocolEngine
    /// Makes one instance's engine on its world, speaking the profile `create_instance` asked for.
    package typealias ProfiledFactory = @Sendable (RequestWorld, MarmotProfile) -> any ProtocolEngine
    /// As ``Reopen``, for the profile `create_instance` asked for.
    package typealias ProfiledReopen =
        @Sendable (RequestWorld, _ directory: String, MarmotProfile) throws(EngineError) -> any ProtocolEngine

    private struct Instance {
        let engine: any ProtocolEngine
        let world: RequestWorld
    }

    private let identity: EngineCapabilities
    private let clientTag: String
    private let factory: ProfiledFactory
    private let reopen: ProfiledReopen?
    /// Whether the factories take the profile (else only legacy instances can be made).
    private let profiled: Bool
    private var instances: [String: Instance] = [:]
    private var counter = 0

    /// - Parameters:
    ///   - identity: what `hello` declares (name, version, capabilities); the world capabilities
    ///     are added, since every request runs on the world.
    ///   - clientTag: the `client` tag value the engine writes.
    ///   - reopen: makes an instance that keeps its state in a directory (`create_instance.directory`)
    ///     and reopens what is there; nil: such a request is `bad_request`.
    package init(identity: EngineCapabilities, clientTag: String, factory: @escaping Factory, reopen: Reopen? = nil) {
        self.identity = identity
        self.clientTag = clientTag
        // These factories cannot choose a profile: `create_instance` asks them for legacy only.
        self.factory = { world, _ in factory(world) }
        if let reopen {
            self.reopen = { (world: RequestWorld, directory: String, _: MarmotProfile) throws(EngineError) -> any ProtocolEngine in
                try reopen(world, directory)
            }
        } else {
            self.reopen = nil
        }
        profiled = false
    }

    /// A server whose instances speak the profile each `create_instance` names (`profile`,
    /// default legacy), among those `identity` declares.
    package init(
        identity: EngineCapabilities, clientTag: String, profiled factory: @escaping ProfiledFactory,
        reopen: ProfiledReopen? = nil
    ) {
        self.identity = identity
        self.clientTag = clientTag
        self.factory = factory
        self.reopen = reopen
        profiled = true
    }

    /// The response line (without its newline) for one request line.
    package func respond(to line: [UInt8]) async -> String {
        let request: DriverRequest
        do { request = try DriverRequest(line: line) } catch {
            return Self.errorLine(id: error.id, error.error)
        }
        do {
            let result = try await serve(request)
            return JSONValue.object(["id": JSONValue(request.id), "result": .object(result)]).serialized()
        } catch {
            return Self.errorLine(id: request.id, error)
        }
    }

    /// The response to a line that is too long to read (its id is unknown).
    package static func oversizedLine(limit: Int) -> String {
        errorLine(id: nil, EngineError(.badRequest, "request line longer than \(limit) bytes"))
    }

    static func errorLine(id: Int64?, _ error: EngineError) -> String {
        let fields: [String: JSONValue] = ["code": .string(error.code.name), "message": .string(error.reason)]
        return JSONValue.object(["id": id.map { JSONValue($0) } ?? .null, "error": .object(fields)]).serialized()
    }

    private func serve(_ request: DriverRequest) async throws(EngineError) -> [String: JSONValue] {
        switch request.method {
        case .hello: return hello()
        case .createInstance: return try createInstance(request.params)
        case .destroyInstance, .closeInstance:
            let name = try request.params.string("instance")
            guard instances.removeValue(forKey: name) != nil else { throw EngineError(.unknownInstance, "no instance `\(name)`") }
            return [:]
        default:
            let name = try request.params.string("instance")
            guard let instance = instances[name] else { throw EngineError(.unknownInstance, "no instance `\(name)`") }
            if let world = request.world { instance.world.begin(unixTime: world.unixTime, seed: world.seed) }
            return try await EngineCall.perform(request.method, request.params, on: instance.engine)
        }
    }

    private func hello() -> [String: JSONValue] {
        let declared = identity.capabilities.map(\.rawValue) + ["world.virtual_clock", "world.seeded_random"]
        return [
            "protocol_version": JSONValue(1), "name": .string(identity.name), "version": .string(identity.version),
            "client_tag": .string(clientTag), "capabilities": .array(Set(declared).sorted().map(JSONValue.string)),
            "world": .object(["clock": .string("virtual"), "random": .string("seeded")]),
        ]
    }

    private func createInstance(_ params: Params) throws(EngineError) -> [String: JSONValue] {
        // The engine keeps its state in memory: the key is checked as the protocol asks, not used.
        _ = try params.bytes("encryption_key", count: 32)
        _ = try params.object("config")
        let directory = params.has("directory") ? try params.string("directory") : nil
        let profile = try Self.profile(params, among: profiled ? identity.profiles : [.legacy])
        // No store to reopen: a restarted member would come back empty, so its run must not pass.
        if directory != nil, reopen == nil {
            throw EngineError(.badRequest, "this driver keeps its instances in memory: it cannot open a store in `directory`")
        }
        counter += 1
        let name = params.has("instance") ? try params.string("instance") : "i\(counter)"
        guard instances[name] == nil else { throw EngineError(.instanceExists, "instance `\(name)` already exists") }
        let world = RequestWorld()
        let engine = if let directory, let reopen { try reopen(world, directory, profile) } else { factory(world, profile) }
        instances[name] = Instance(engine: engine, world: world)
        return ["instance": .string(name)]
    }

    /// The profile `create_instance` asks for (`profile`: "legacy" or "current"; absent: legacy,
    /// what every instance spoke before profiles existed). One this engine cannot speak is refused
    /// here, never served in the other dialect.
    static func profile(_ params: Params, among declared: Set<MarmotProfile>) throws(EngineError) -> MarmotProfile {
        guard params.has("profile") else { return .legacy }
        let name = try params.string("profile")
        guard let profile = MarmotProfile(rawValue: name) else {
            throw EngineError(.badRequest, "unknown profile `\(name)` (legacy or current)")
        }
        guard declared.contains(profile) else {
            throw EngineError(.badRequest, "this engine does not speak the \(profile) profile")
        }
        return profile
    }
}
