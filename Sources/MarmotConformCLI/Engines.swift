// The engines the CLI can put members on. Only the CLI names concrete engines; the runner
// receives them as factories.
import DeterministicScheduler
import Dispatch
import EngineInterface
import ExternalProcessEngine
import Foundation
import NativeSwiftEngine
import ProcessSupport
import ScenarioRunner
import Synchronization

enum Engines {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// An engine behind a driver (MDK 0.8.0 through ``DriverCommand/mdk(root:environment:)``, an
    /// engines-file entry, a `driver:` command): one driver process for the whole invocation, one
    /// engine instance per member per run (names are made unique). Every instance runs on the
    /// member's world clock and seeded stream, so runs replay byte for byte; a driver that cannot do
    /// that, or whose `hello` names another version than the engines file expects, is refused here,
    /// before any scenario runs.
    static func driver(_ command: DriverCommand, deadline: ProgressDeadline, epoch: UInt64)
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
            throw Unavailable(description: "the \(command.name) driver (\(command.description)) cannot run: \(error)")
        }
        if let expected = command.expectedVersion, expected != version {
            await process.shutdown()
            throw Unavailable(
                description: "the \(command.name) driver (\(command.description)) reports version \(version), "
                    + "the engines file expects \(expected)")
        }
        let counter = InstanceCounter()
        let open = OpenStores()
        // The driver protocol carries no profile: a driver's instances speak what its `capabilities`
        // declare (MDK 0.8.0: legacy only), and a member of another profile (`context.profile`)
        // makes its scenario `unsupported` before step one (StepInterpreter.unspokenProfile).
        let entry = EngineSet.Entry(
            factory: { context in
                let instance = "\(context.label)-\(await counter.next())"
                let world = WorldFeed(clock: context.clock, generator: context.generator)
                guard context.persistent else {
                    return try await process.makeEngine(instance: instance, encryptionKey: context.storageKey, world: world)
                }
                // A member that restarts: its instance before the restart closes (its app stopped), and
                // the new one reopens the same store.
                let directory = context.storageDirectory + "/driver"
                if let previous = await open.take(directory) { try await process.close(previous) }
                let engine = try await process.makeEngine(
                    instance: instance, encryptionKey: context.storageKey, world: world, directory: directory)
                await open.put(engine, at: directory)
                return engine
            }, deterministic: true)
        return (entry, version, { await process.shutdown() })
    }
}

extension Engines {
    /// Our own engine on our own MLS: in process, seeded from the member's key, on the world's clock,
    /// so runs with it replay byte for byte; it speaks the member's profile (`context.profile`).
    static var swift: EngineSet.Entry {
        EngineSet.Entry(
            factory: { context in
                // A run that restarts members keeps each engine's state in its member's directory.
                // A current-profile leaf carries the account's identity proof, signed with the member's
                // account key, so the engine holds that key from the start.
                try NativeSwiftEngine(
                    generator: context.generator, clock: context.clock,
                    stateFile: context.persistent ? context.storageDirectory + "/swift-engine.state" : nil,
                    profile: context.profile, accountKeys: context.accountKey.map { [$0] } ?? [], crashSwitch: context.crashSwitch,
                    retainedEventIDs: context.retainedEventIDs)
            }, deterministic: true)
    }
}

/// The engines one invocation uses, started once and shared by all its runs.
struct EngineSession {
    var engines = EngineSet([:])
    var versions: [String: String] = [:]
    /// Unix time of virtual zero, the same for every engine: MDK runs on the world's clock too (its
    /// driver's world shim), so every run replays byte for byte.
    var epoch: UInt64 = RunPlan.epochUnixSeconds
    var shutdowns: [@Sendable () async -> Void] = []

    /// Starts what `selections` need (each once): ours in process, every other engine's driver.
    static func start(for selections: [EngineSelection], context: EngineContext, driverTimeout: DriverTimeout) async throws
        -> EngineSession
    {
        var session = EngineSession()
        // Our engine runs in process, so it is always there for members that pin it (`engine:
        // swift`, as a hostile member does) whatever the selection.
        session.engines.entries[EngineSelection.swift.rawValue] = Engines.swift
        let engines = selections.flatMap(\.engines)
        for engine in engines where session.versions[engine.rawValue] == nil {
            guard engine != .swift else {
                session.versions[EngineSelection.swift.rawValue] = "0.1"
                continue
            }
            let command = try context.command(for: engine)
            let (entry, version, shutdown) = try await Engines.driver(command, deadline: driverTimeout.deadline, epoch: session.epoch)
            session.engines.entries[engine.rawValue] = entry
            session.versions[engine.rawValue] = version
            session.shutdowns.append(shutdown)
        }
        if selections.contains(.mixed) || engines.count > 1 {
            // What a ledger entry for mixed (and matrix) runs names as its version: every engine taking part.
            let mixed = EngineSelection.mixed.rawValue
            session.versions[mixed] = session.versions.filter { $0.key != mixed }.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: " + ")
        }
        // A matrix cell reproduced with `--engine matrix:…` carries the version the matrix gave it.
        for selection in selections {
            guard case .assignment = selection.kind else { continue }
            session.versions[selection.rawValue] = session.versions[EngineSelection.mixed.rawValue]
        }
        return session
    }

    static func start(for selection: EngineSelection, context: EngineContext, driverTimeout: DriverTimeout) async throws -> EngineSession {
        try await start(for: [selection], context: context, driverTimeout: driverTimeout)
    }

    func shutdown() async {
        for shutdown in shutdowns { await shutdown() }
    }
}

/// Unique instance names across runs sharing one driver.
/// The driver instance open on each member store of persisting runs.
actor OpenStores {
    private var engines: [String: ExternalProcessEngine] = [:]
    func take(_ directory: String) -> ExternalProcessEngine? { engines.removeValue(forKey: directory) }
    func put(_ engine: ExternalProcessEngine, at directory: String) { engines[directory] = engine }
}

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
