// `marmot-conform driver swift`: our engine out of process, behind the driver protocol on
// stdin/stdout (docs/driver-protocol.md), the peer of the client every other engine is run through.
import ArgumentParser
import DeterministicScheduler
import DriverService
import EngineInterface
import Foundation
import NativeSwiftEngine

extension MarmotConform {
    struct DriverServe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "driver",
            abstract: "Serve an engine over the driver protocol on stdin/stdout (docs/driver-protocol.md).",
            discussion: """
                `marmot-conform driver swift` is our Swift engine as a driver process: \
                `marmot-conform run --engine driver:'marmot-conform driver swift'` runs the suite through it. \
                Every request but `hello` must carry `world` (the engine runs on the world's clock and seed). \
                Exit status: 0 when stdin closes.
                """)

        enum Served: String, ExpressibleByArgument, CaseIterable {
            case swift
        }

        @Argument(help: "The engine to serve: swift.")
        var engine: Served

        func run() async throws {
            let identity = try await NativeSwiftEngine(generator: SeededGenerator(seed: 0), clock: { 0 }).capabilities()
            // Forging hostile traffic is not part of the protocol: a hostile member pins the in-process engine.
            let served = EngineCapabilities(
                name: identity.name, version: identity.version, capabilities: identity.capabilities.subtracting([.hostile]))
            let server = DriverServer(
                identity: served, clientTag: NativeSwiftEngine.clientTag,
                profiled: { world, profile in
                    NativeSwiftEngine(generator: world.generator, clock: world.clock, profile: profile)
                },
                reopen: { world, directory, profile throws(EngineError) in
                    // A member that restarts: the engine's state file in the caller's directory.
                    do {
                        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    } catch {
                        throw EngineError(.storage, "cannot create \(directory): \(error)")
                    }
                    return try NativeSwiftEngine(
                        generator: world.generator, clock: world.clock, stateFile: directory + "/swift-engine.state", profile: profile)
                })
            await DriverLoop.serve(server)
        }
    }
}
