// The Swift compatibility kit: a Swift Marmot engine runs the conformance scenarios in process,
// from its own `swift test`, given a factory for its `ProtocolEngine`. The kit is the runner the
// CLI uses (same world, same oracles, stored outcome vectors, pinned fingerprints, known-defects
// ledger, spec profiles); it only swaps the CLI's engine choice for the caller's factory. Its API is
// `public` (a library product); everything under it stays `package`.
//
//     let kit = ConformanceKit(root: checkout, engine: "my-engine", version: "1.2") { member in
//         MyEngine(random: member.random, clock: member.clock, storageKey: member.storageKey)
//     }
//     let results = try await kit.run(["scenarios/group-lifecycle"])
//     #expect(results.allSatisfy(\.passed))
import DeterministicScheduler
import EngineInterface
import Foundation
import ScenarioModel
import ScenarioRunner
import Simulation

/// Runs marmot-conform scenarios on a caller's engine, in process.
public struct ConformanceKit: Sendable {
    /// Makes the engine of one simulated member.
    public typealias EngineFactory = @Sendable (KitMember) async throws -> any ProtocolEngine

    /// A marmot-conform checkout: its `scenarios/`, `vectors/scenarios/` and `known-defects.yaml` are used.
    public let root: URL
    /// The engine's name in reports, ledger entries and pinned fingerprints (`swift` is ours).
    public let engine: String
    /// The engine's version, as ledger entries name it.
    public let version: String
    /// The Marmot profile every member speaks and the runs are judged by (`legacy`, `current`; the
    /// old names `mdk-0.8.0` and `marmot-current` are accepted for them). Scenarios that do not
    /// apply to it are skipped; `KitMember.profile` tells the factory which to make.
    public let profile: String
    /// Whether the engine takes all its time and randomness from `KitMember` (then runs are
    /// fingerprinted and checked against pinned fingerprints, if any are stored for `engine`).
    public let deterministic: Bool
    /// `YYYY-MM-DD`, for ledger expiry only (nothing in a run reads it).
    public var today: String
    /// Where failure capsules go (`marmot-conform trace` and `replay` read them).
    public var capsules: URL
    let factory: EngineFactory

    public init(
        root: URL, engine: String, version: String, profile: String = "legacy", deterministic: Bool = true,
        factory: @escaping EngineFactory
    ) {
        self.root = root
        self.engine = engine
        self.version = version
        self.profile = profile
        self.deterministic = deterministic
        self.factory = factory
        today = KitClock.today
        capsules = root.appendingPathComponent("run/capsules")
    }

    /// Runs the scenario files and folders `paths` (relative to `root`) once per seed.
    /// - Throws: `KitError` when a path, a scenario file, the ledger or the profile cannot be used;
    ///   an engine that fails during a run is that run's `error` verdict, never a throw or a pass.
    public func run(_ paths: [String], seeds: [UInt64] = [1]) async throws -> [KitResult] {
        let (scenarios, request) = try prepare(paths, seeds: seeds)
        let runner = ConformanceRunner(executor: ScenarioExecutor(engines: engineSet(), epochUnixSeconds: KitClock.epoch))
        let runs = await runner.run(scenarios, request: request) { _ in }
        return runs.map(KitResult.init)
    }

    /// Everything a run needs before any engine starts (synchronous: Swift 6.3.1 crashed splitting
    /// long async functions in release builds).
    func prepare(_ paths: [String], seeds: [UInt64]) throws(KitError) -> ([(Scenario, text: String)], RunRequest) {
        guard engine != EngineSelection.mixedWord, !engine.isEmpty else {
            throw KitError(.badOption, "engine name '\(engine)' is reserved")
        }
        guard let claimed = MarmotProfile(named: profile) else {
            throw KitError(.badOption, "unknown profile '\(profile)' (\(MarmotProfile.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard !seeds.isEmpty else { throw KitError(.badOption, "no seed") }
        // Scenarios that do not apply to the profile are not run (and so not in the results).
        let scenarios = ConformanceRunner.applicable(try KitFiles.load(paths, root: root), to: claimed).applying
        var request = RunRequest(
            selection: EngineSelection(engine: engine), seeds: seeds, updateVectors: false, checkDeterminism: false,
            vectorsDirectory: RunPlan.vectorsDirectory(root: root), capsuleDirectory: capsules,
            ledger: try KitFiles.ledger(root), engineVersions: [engine: version], today: today)
        request.profile = claimed
        return (scenarios, request)
    }

    func engineSet() -> EngineSet {
        let factory = self.factory
        return EngineSet([
            engine: EngineSet.Entry(
                factory: { context in
                    try await factory(KitMember(context))
                }, deterministic: deterministic)
        ])
    }
}

/// What the kit hands an engine factory for one simulated member: all the time and randomness the
/// engine may use, so that the same seed replays the same run.
public struct KitMember: Sendable {
    /// The member's label in the scenario.
    public let label: String
    /// 32 bytes for the engine's storage encryption.
    public let storageKey: [UInt8]
    /// Unix seconds of the world's virtual clock.
    public let clock: @Sendable () -> UInt64
    /// The member's own seeded random stream.
    public let random: KitRandom
    /// The Marmot profile the member speaks (`legacy` or `current`: its scenario's `profile:`, else
    /// the kit's). An engine that cannot speak it should still be made: the capabilities it
    /// declares (`profile.legacy`, `profile.current`) make the scenario unsupported.
    public let profile: String

    init(_ context: EngineContext) {
        label = context.label
        storageKey = context.storageKey
        clock = context.clock
        random = KitRandom(base: context.generator)
        profile = context.profile.rawValue
    }
}

/// The world's seeded random stream for one member (never the system's randomness).
public struct KitRandom: RandomNumberGenerator, Sendable {
    var base: SeededGenerator

    public mutating func next() -> UInt64 { base.next() }
}

/// The wall clock, read outside every run: ledger expiry only. The world's epoch is the CLI's,
/// so that pinned fingerprints hold for runs through the kit too.
enum KitClock {
    static let epoch = RunPlan.epochUnixSeconds

    static var today: String { RunPlan.day(Date()) }
}
