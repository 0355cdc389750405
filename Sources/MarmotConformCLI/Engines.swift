// The engines the CLI can put members on. Only the CLI names concrete engines; the runner
// receives them as factories.
import DeterministicScheduler
import Dispatch
import EngineInterface
import ExternalProcessEngine
import NativeSwiftEngine
import Foundation
import ScenarioRunner
import Synchronization

enum Engines {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// MDK 0.8.0 through its driver (``MDKDriverCommand``): one driver process for the whole
    /// invocation, one engine instance per member per run (names are made unique). Every instance runs
    /// on the member's world clock and seeded stream, so MDK runs replay byte for byte; a driver that
    /// cannot do that is refused here, before any scenario runs.
    static func mdk(_ command: MDKDriverCommand, deadline: ProgressDeadline, epoch: UInt64)
        async throws -> (EngineSet.Entry, version: String, shutdown: @Sendable () async -> Void)
    {
        SignalCleanup.installOnce()
        let process = await DriverProcess.launch(
            executable: command.executable, arguments: command.arguments, environment: command.environment, deadline: deadline)
        let version: String
        do {
            try await process.requireWorld()
            // The probe checks that the engine loads; it runs on a fixed instant and seed of its own.
            let probeWorld = WorldFeed(clock: { epoch }, generator: SeededGenerator(seed: 0).child("probe"))
            let probe = try await process.makeEngine(instance: "probe", encryptionKey: [UInt8](repeating: 7, count: 32), world: probeWorld)
            version = try await probe.capabilities().version
        } catch {
            await process.shutdown()
            throw Unavailable(description: "the MDK driver (\(command.description)) cannot run: \(error)")
        }
        let counter = InstanceCounter()
        let entry = EngineSet.Entry(factory: { context in
            try await process.makeEngine(
                instance: "\(context.label)-\(await counter.next())", encryptionKey: context.storageKey,
                world: WorldFeed(clock: context.clock, generator: context.generator))
        }, deterministic: true)
        return (entry, version, { await process.shutdown() })
    }
}

/// How the MDK driver is started: by default `.venv/bin/python drivers/mdk/driver.py` with the world
/// shim `.venv/lib/libworldshim.so` preloaded (all made by ci/setup). `MARMOT_MDK_DRIVER` names
/// another command (split on spaces), e.g. a stand-in driver a test controls; the shim is still
/// preloaded when present, and the command must pass the same world check.
struct MDKDriverCommand: CustomStringConvertible {
    var executable: String
    var arguments: [String]
    var environment: [String: String?]

    static let overrideVariable = "MARMOT_MDK_DRIVER"

    var description: String { ([executable] + arguments).joined(separator: " ") }

    static func resolve(root: String = ".", environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Self {
        let shim = "\(root)/.venv/lib/libworldshim.so"
        let absoluteShim = URL(fileURLWithPath: shim).standardizedFileURL.path
        var variables: [String: String?] = ["PYTHONHASHSEED": "0"]
        if FileManager.default.fileExists(atPath: shim) { variables["LD_PRELOAD"] = absoluteShim }
        if let custom = environment[overrideVariable], let first = custom.split(separator: " ").first {
            return Self(executable: String(first), arguments: custom.split(separator: " ").dropFirst().map(String.init), environment: variables)
        }
        let python = "\(root)/.venv/bin/python", driver = "\(root)/drivers/mdk/driver.py"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Engines.Unavailable(description: "no Python at \(python): run ci/setup (it creates .venv with mdk-python)")
        }
        guard FileManager.default.fileExists(atPath: driver) else {
            throw Engines.Unavailable(description: "no MDK driver at \(driver): run marmot-conform from the repository root")
        }
        guard variables["LD_PRELOAD"] != nil else {
            throw Engines.Unavailable(description: "no world shim at \(shim): run ci/setup (MDK runs only on the world's clock and seed)")
        }
        return Self(executable: python, arguments: [driver], environment: variables)
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

/// The engines one invocation uses, started once and shared by all its runs.
struct EngineSession {
    var engines = EngineSet([:])
    var versions: [String: String] = [:]
    /// Unix time of virtual zero, the same for every engine: MDK runs on the world's clock too (its
    /// driver's world shim), so every run replays byte for byte.
    var epoch: UInt64 = 1_700_000_000
    var shutdowns: [@Sendable () async -> Void] = []

    static func start(for selection: EngineSelection, driverTimeout: DriverTimeout) async throws -> EngineSession {
        var session = EngineSession()
        // Our engine runs in process, so it is always there for members that pin it (`engine:
        // swift`, as a hostile member does) whatever the selection.
        session.engines.entries["swift"] = Engines.swift
        if selection.usesSwift { session.versions["swift"] = "0.1" }
        if selection.usesMDK {
            let (entry, version, shutdown) = try await Engines.mdk(try MDKDriverCommand.resolve(), deadline: driverTimeout.deadline, epoch: session.epoch)
            session.engines.entries["mdk"] = entry
            session.versions["mdk"] = version
            session.shutdowns.append(shutdown)
        }
        if selection == .mixed {
            // What a ledger entry for mixed runs names as its version: every engine taking part.
            session.versions["mixed"] = session.versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                .joined(separator: " + ")
        }
        return session
    }

    func shutdown() async {
        for shutdown in shutdowns { await shutdown() }
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

/// On SIGINT or SIGTERM, ends the driver processes before exiting, so none outlives the runner.
/// (Drivers also exit by themselves when the runner dies without a chance to clean up.)
enum SignalCleanup {
    /// The signal sources, kept alive for the life of the process once installed.
    private static let sources = Mutex<[any DispatchSourceSignal]?>(nil)

    static func installOnce() {
        sources.withLock { installed in
            guard installed == nil else { return }
            installed = [SIGINT, SIGTERM].map { signalNumber in
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler {
                    LiveDrivers.shared.terminateAll()
                    exit(128 + signalNumber)
                }
                source.resume()
                return source
            }
        }
    }
}
