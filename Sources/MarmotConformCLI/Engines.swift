// The engines the CLI can put members on. Only the CLI names concrete engines; the runner
// receives them as factories.
import EngineInterface
import ExternalProcessEngine
import NativeSwiftEngine
import Foundation
import ScenarioRunner

enum Engines {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// MDK 0.8.0 through drivers/mdk/driver.py in the repository's venv: one driver process for
    /// the whole invocation, one engine instance per member per run (names are made unique).
    static func mdk(python: String, driver: String) async throws -> (EngineSet.Entry, version: String, shutdown: @Sendable () async -> Void) {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Unavailable(description: "no Python at \(python): run ci/setup (it creates .venv with mdk-python)")
        }
        guard FileManager.default.fileExists(atPath: driver) else {
            throw Unavailable(description: "no MDK driver at \(driver): run marmot-conform from the repository root")
        }
        let process = await DriverProcess.launch(executable: python, arguments: [driver], requestTimeout: .seconds(120))
        let probe = try await process.makeEngine(instance: "probe", encryptionKey: [UInt8](repeating: 7, count: 32))
        let capabilities = try await probe.capabilities()
        let counter = InstanceCounter()
        let entry = EngineSet.Entry(factory: { context in
            try await process.makeEngine(instance: "\(context.label)-\(await counter.next())", encryptionKey: context.storageKey)
        }, deterministic: false)
        return (entry, capabilities.version, { await process.shutdown() })
    }
}

extension Engines {
    /// Our own engine on our own MLS: in process, seeded from the member's key, on the world's clock,
    /// so runs with it replay byte for byte.
    static var swift: EngineSet.Entry {
        EngineSet.Entry(factory: { context in
            NativeSwiftEngine(generator: context.generator, clock: context.clock)
        }, deterministic: true)
    }
}

/// Unique instance names across runs sharing one driver.
actor InstanceCounter {
    private var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}
