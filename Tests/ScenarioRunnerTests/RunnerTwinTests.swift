import ConformanceTestSupport
import EngineInterface
import EngineTestSupport
import Foundation
import NativeSwiftEngine
import Nostr
import ScenarioModel
import ScenarioRunner
import Synchronization
import Testing

/// Twins of the runner-level oracles: each is made to fail by a broken engine or a broken record.
@Suite struct RunnerTwinTests {
    static let swift = EngineSet([
        "swift": EngineSet.Entry(
            factory: { context in
                NativeSwiftEngine(generator: context.generator, clock: context.clock)
            }, deterministic: true)
    ])

    static let group = """
        name: runner twins
        members: [{ label: alice }, { label: bob }, { label: carol }]
        steps:
          - deliver: all
          - create-group: { by: alice, with: [bob, carol], name: Team }
          - deliver: all

        """

    static func execute(_ yaml: String, engines: EngineSet = swift) async throws -> ScenarioRun {
        let executor = ScenarioExecutor(engines: engines, epochUnixSeconds: 1_700_000_000)
        return await executor.execute(try Scenario(yaml: yaml, file: "twins.yaml"), seed: 1, selection: .swift, reproduce: "-").run
    }

    static func request(_ directory: URL, update: Bool = false, determinism: Bool = false) -> RunRequest {
        RunRequest(
            selection: .swift, seeds: [1], updateVectors: update, checkDeterminism: determinism, vectorsDirectory: directory,
            capsuleDirectory: directory.appendingPathComponent("capsules"), ledger: DefectLedger(entries: []),
            engineVersions: ["swift": "0.1"], today: "2026-01-01")
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-twins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `converged`, layer 1: a rename nobody else receives leaves names and epochs apart.
    @Test func convergedCatchesADifferentNameAndEpoch() async throws {
        let run = try await Self.execute(
            Self.group + """
                  - fault: { apply: drop, direction: to-member, member: bob, kind: 445 }
                  - fault: { apply: drop, direction: to-member, member: carol, kind: 445 }
                  - rename: { by: alice, to: Alone }
                  - deliver: all
                expect: { converged: true }
                """)
        let check = try #require(run.checks.first { $0.check == "converged" })
        #expect(check.verdict == .fail)
        #expect(check.observed?.contains("name Alone") == true, "\(check.observed ?? "")")
    }

    /// `race winner`: a member whose engine ignores every group event never takes the winning rename.
    @Test func raceWinnerCatchesAMemberThatIgnoresTheWinningCommit() async throws {
        let engines = EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    let engine = NativeSwiftEngine(generator: context.generator, clock: context.clock)
                    return context.label == "carol" ? DeafEngine(base: engine) as any ProtocolEngine : engine
                }, deterministic: true)
        ])
        let run = try await Self.execute(
            """
            name: race twin
            members: [{ label: alice }, { label: bob }, { label: carol }]
            steps:
              - deliver: all
              - create-group: { by: alice, with: [bob, carol], admins: [bob], name: Team }
              - deliver: all
              - name: race
                parallel:
                  - rename: { by: alice, to: Alpha }
                  - rename: { by: bob, to: Bravo }
              - deliver: all
              - check: { race-winner: race }
            """, engines: engines)
        let check = try #require(run.checks.first { $0.check.hasSuffix("race winner of 'race'") })
        #expect(check.verdict == .fail)
        #expect(check.detail.contains("on another commit: carol"), "\(check.detail)")
    }

    /// `wait until quiescent`: a deadline shorter than one relay round trip is missed.
    @Test func quiescentWithinCatchesTrafficStillInFlight() async throws {
        let run = try await Self.execute(
            Self.group + """
                  - send: { by: alice, text: hello }
                  - wait: { until: quiescent, within: 1ms }
                """)
        let check = try #require(run.checks.first { $0.check.contains("quiescent within") })
        #expect(check.verdict == .fail)
    }

    /// Stored vector: an outcome that differs from the stored one fails, naming the difference.
    @Test func storedVectorCatchesAChangedOutcome() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try Scenario(yaml: Self.group, file: "scenarios/twins/vector.yaml")
        let runner = ConformanceRunner(executor: ScenarioExecutor(engines: Self.swift, epochUnixSeconds: 1_700_000_000))
        _ = await runner.run([(scenario, text: Self.group)], request: Self.request(directory, update: true)) { _ in }
        let url = directory.appendingPathComponent("twins-vector.json")
        let stored = try String(contentsOf: url, encoding: .utf8)
        #expect(stored.contains("\"rejections\""))
        try stored.replacingOccurrences(of: "\"Team\"", with: "\"Teem\"").write(to: url, atomically: true, encoding: .utf8)
        let runs = await runner.run([(scenario, text: Self.group)], request: Self.request(directory)) { _ in }
        let check = try #require(runs.first?.checks.first { $0.check == "stored vector twins-vector.json" })
        #expect(check.verdict == .fail)
        #expect(check.detail.contains("expected \"Teem\", observed \"Team\""), "\(check.detail)")
    }

    /// Determinism: an engine that draws from the system's generator while claiming to be
    /// deterministic replays a different trace; and a pinned fingerprint that is not this run's fails.
    @Test func determinismAndPinnedFingerprintCatchAnEngineDrawingOutsideTheSeed() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let leaky = EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    NativeSwiftEngine(generator: SystemRandomNumberGenerator(), clock: context.clock)
                }, deterministic: true)
        ])
        let yaml = Self.group.replacingOccurrences(of: "name: runner twins", with: "name: runner twins\nvector: false")
        let scenario = try Scenario(yaml: yaml, file: "scenarios/twins/determinism.yaml")
        try #"{ "format-version": 2, "fingerprints": { "twins-determinism swift seed 1": "0000" } }"#.write(
            to: directory.appendingPathComponent("fingerprints.json"), atomically: true, encoding: .utf8)
        let runner = ConformanceRunner(executor: ScenarioExecutor(engines: leaky, epochUnixSeconds: 1_700_000_000))
        let runs = await runner.run([(scenario, text: yaml)], request: Self.request(directory, determinism: true)) { _ in }
        let checks = try #require(runs.first?.checks)
        #expect(checks.first { $0.check == "same seed, same trace" }?.verdict == .fail)
        #expect(checks.first { $0.check == "stored trace fingerprint" }?.verdict == .fail)
    }

    /// No check twice: with a fingerprint pinned that the run replays, determinism is proven by the
    /// pin with one run; with nothing pinned (or a pin the run misses) a second run decides. The
    /// engine factory counts the worlds built (one per member per run).
    @Test func aReplayedPinSparesTheSecondRunAndNothingPinnedRunsTwice() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = Mutex(0)
        let counting = EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    made.withLock { $0 += 1 }
                    return NativeSwiftEngine(generator: context.generator, clock: context.clock)
                }, deterministic: true)
        ])
        let yaml = Self.group.replacingOccurrences(of: "name: runner twins", with: "name: runner twins\nvector: false")
        let scenario = try Scenario(yaml: yaml, file: "scenarios/twins/pinned.yaml")
        let runner = ConformanceRunner(executor: ScenarioExecutor(engines: counting, epochUnixSeconds: 1_700_000_000))
        // Nothing pinned: two runs.
        let unpinned = await runner.run([(scenario, text: yaml)], request: Self.request(directory, determinism: true)) { _ in }
        let twoRuns = made.withLock { $0 }
        let twice = try #require(unpinned.first?.checks.first { $0.check == "same seed, same trace" })
        #expect(twice.verdict == .pass && twice.detail.contains("by a second run (nothing pinned)"), "\(twice)")
        // Pin it, then one run proves it.
        let fingerprint = try #require(unpinned.first?.fingerprint)
        try #"{ "format-version": 2, "fingerprints": { "twins-pinned swift seed 1": "\#(fingerprint)" } }"#.write(
            to: directory.appendingPathComponent("fingerprints.json"), atomically: true, encoding: .utf8)
        made.withLock { $0 = 0 }
        let pinned = await runner.run([(scenario, text: yaml)], request: Self.request(directory, determinism: true)) { _ in }
        let oneRun = made.withLock { $0 }
        #expect(oneRun > 0 && twoRuns == 2 * oneRun, "engines made: \(twoRuns) unpinned, \(oneRun) pinned")
        let once = try #require(pinned.first?.checks.first { $0.check == "same seed, same trace" })
        #expect(once.verdict == .pass && once.detail.contains("by the pin"), "\(once)")
        // A pin the run does not replay: the second run is made again, and the pin check fails.
        try #"{ "format-version": 2, "fingerprints": { "twins-pinned swift seed 1": "0000" } }"#.write(
            to: directory.appendingPathComponent("fingerprints.json"), atomically: true, encoding: .utf8)
        made.withLock { $0 = 0 }
        let stale = await runner.run([(scenario, text: yaml)], request: Self.request(directory, determinism: true)) { _ in }
        #expect(made.withLock { $0 } == twoRuns)
        #expect(stale.first?.checks.first { $0.check == "same seed, same trace" }?.detail.contains("the pin differs") == true)
        #expect(stale.first?.checks.first { $0.check == "stored trace fingerprint" }?.verdict == .fail)
    }
}

/// Our engine, except that it processes no group event at all (every kind 445 is "unprocessable").
struct DeafEngine: ForwardingEngine {
    let base: any ProtocolEngine
    func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult {
        .unprocessable(nil, reason: "twin: ignored")
    }
}
