import EngineInterface
import EngineTestSupport
import ExternalProcessEngine
import NativeSwiftEngine
import Nostr
import ScenarioModel
import ScenarioRunner
import Testing

/// Infrastructure failures are `error` verdicts: never a pass, never a skip, and they fail the run.
@Suite struct ErrorVerdictTests {
    static let scenario = """
        name: error verdicts
        members: [{ label: alice }, { label: bob }]
        steps:
          - deliver: all
          - create-group: { by: alice, with: [bob], name: Team }
          - deliver: all
        expect: { converged: true }

        """

    static func run(_ engines: EngineSet, selection: EngineSelection) async throws -> ScenarioRun {
        let executor = ScenarioExecutor(engines: engines, epochUnixSeconds: 1_700_000_000)
        return await executor.execute(try Scenario(yaml: scenario, file: "errors.yaml"), seed: 1, selection: selection, reproduce: "-").run
    }

    /// The suite's scenario with `step` put before the first line starting `anchor`, run once.
    static func run(_ engines: EngineSet, inserting step: String, before anchor: String, file: String) async throws -> ScenarioRun {
        let yaml = scenario.replacingOccurrences(of: "\n" + anchor, with: "\n" + step + anchor)
        #expect(yaml.contains(step))
        let executor = ScenarioExecutor(engines: engines, epochUnixSeconds: 1_700_000_000)
        return await executor.execute(try Scenario(yaml: yaml, file: file), seed: 1, selection: .swift, reproduce: "-").run
    }

    /// Our engine, declaring its capabilities without `removed` and with `added`.
    static func ourEngine(declaringWithout removed: Set<EngineCapability>, with added: Set<EngineCapability> = []) -> EngineSet {
        EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    DeclaringEngine(
                        base: NativeSwiftEngine(generator: context.generator, clock: context.clock), removed: removed, added: added)
                }, deterministic: true)
        ])
    }

    /// A driver (a shell script this test controls) that creates one instance, then exits while the
    /// members start. Every later run on the same dead driver is an error too, not "unsupported".
    @Test func aDriverThatDiesDuringMemberCreationIsAnErrorForThisAndEveryLaterRun() async throws {
        let script = #"read line; printf '{"id":1,"result":{"instance":"m1"}}\n'; read line; exit 3"#
        let driver = await DriverProcess.launch(executable: "/bin/sh", arguments: ["-c", script])
        let engines = EngineSet([
            "fake": EngineSet.Entry(
                factory: { context in
                    try await driver.makeEngine(instance: context.label, encryptionKey: context.storageKey)
                }, deterministic: false)
        ])
        let first = try await Self.run(engines, selection: EngineSelection(engine: "fake"))
        #expect(first.verdict == .error)
        #expect(first.verdict.failsTheRun)
        #expect(first.notRun == nil)
        let reason = first.checks.filter { $0.verdict == .error }.map(\.detail).joined()
        #expect(reason.contains("driver_died"), "\(first.checks)")
        let second = try await Self.run(engines, selection: EngineSelection(engine: "fake"))
        #expect(second.verdict == .error)
        #expect(second.checks.contains { $0.check == "members' engines start" && $0.verdict == .error })
        let summary = RunSummary([first, second])
        #expect(summary.line.hasPrefix("0 passed, 2 failed (of which 2 errors)"))
        let xml = JUnitReport.xml([TimedRun(first, seconds: 1), TimedRun(second, seconds: 1)])
        #expect(xml.contains("errors=\"2\"") && xml.contains("<error message=") && !xml.contains("<skipped"))
        await driver.shutdown()
    }

    /// A member whose engine cannot be made again at a restart (its store is gone, its driver
    /// refuses the directory) is an infrastructure failure: the run is an `error`, never a member
    /// that merely forgot. The twin: the same scenario with a factory that restarts passes.
    @Test func anEngineThatCannotStartAgainAfterARestartIsAnError() async throws {
        let text = """
            name: a restart whose engine cannot start again
            members: [{ label: alice }, { label: bob }]
            steps:
              - deliver: all
              - create-group: { by: alice, with: [bob], name: Team }
              - deliver: all
              - restart: { member: bob, down: 2s }
              - deliver: all
            expect: { converged: true }

            """
        func run(failingRestarts: Bool) async throws -> ScenarioRun {
            let engines = EngineSet([
                "swift": EngineSet.Entry(
                    factory: { context in
                        if failingRestarts, context.start > 0 { throw EngineError(.launchFailed, "the store could not be opened") }
                        return try NativeSwiftEngine(
                            generator: context.generator, clock: context.clock,
                            stateFile: context.persistent ? context.storageDirectory + "/swift-engine.state" : nil)
                    }, deterministic: true)
            ])
            let executor = ScenarioExecutor(engines: engines, epochUnixSeconds: 1_700_000_000)
            return await executor.execute(try Scenario(yaml: text, file: "restart-error.yaml"), seed: 1, selection: .swift, reproduce: "-")
                .run
        }
        let failing = try await run(failingRestarts: true)
        #expect(failing.verdict == .error, "\(failing.checks)")
        let answered = failing.checks.first { $0.check == "engines answered" }
        #expect(answered?.verdict == .error)
        #expect(answered?.detail.contains("bob: could not start again") == true, "\(String(describing: answered))")
        let working = try await run(failingRestarts: false)
        #expect(working.verdict == .pass, "\(working.checks.filter { $0.verdict != .pass })")
    }

    /// Every oracle that reads engine state says `error`, not `pass`, when the reads fail (they used
    /// to take a failed `groups` read for "no groups", and so for agreement).
    @Test func oraclesWhoseReadsFailAreErrorsNotPasses() async throws {
        let engines = EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    GroupsTimeOutEngine(base: NativeSwiftEngine(generator: context.generator, clock: context.clock))
                }, deterministic: true)
        ])
        let run = try await Self.run(engines, selection: .swift)
        #expect(run.verdict == .error)
        for name in ["converged", "no member ahead", "read members' outcome", "engines answered"] {
            let check = try #require(run.checks.first { $0.check == name }, "\(name) missing")
            #expect(check.verdict == .error, "\(name): \(check.verdict)")
            #expect(check.detail.contains("timeout"), "\(name): \(check.detail)")
        }
        #expect(!run.checks.contains { $0.verdict == .pass && ["converged", "no member ahead"].contains($0.check) })
    }

    /// A capability the run's profile requires, declared missing, fails the run before step one and
    /// lists what is missing: an engine that offers nothing is never certified by skipping.
    @Test func aRequiredCapabilityTheEngineLacksFailsTheRun() async throws {
        let engines = Self.ourEngine(declaringWithout: [.createGroup])
        let run = try await Self.run(engines, selection: .swift)
        #expect(run.verdict == .fail && run.notRun == nil)
        let check = try #require(run.checks.first { $0.check == ScenarioExecutor.requiredCapabilitiesCheck })
        #expect(check.verdict == .fail && check.observed == "missing: group.create", "\(check)")
        #expect(check.detail.contains("legacy profile requires"), "\(check.detail)")
        #expect(run.checks.count == 1, "nothing else ran: \(run.checks.map(\.check))")
    }

    /// The twin: an optional capability the engine declares it lacks is still `unsupported` (a
    /// skip, not a failure), for a scenario whose steps need it.
    @Test func anOptionalCapabilityTheEngineLacksIsUnsupported() async throws {
        let engines = Self.ourEngine(declaringWithout: [.groupImage])
        let run = try await Self.run(
            engines, inserting: "  - set-image: { by: alice, image: avatar.png, mime-type: image/png }\n", before: "expect",
            file: "scenarios/state-model/unsupported-image.yaml")
        #expect(run.verdict == .unsupported, "\(run.checks)")
        #expect(run.notRun?.contains("lacks capability group.image") == true, "\(run.notRun ?? "")")
        #expect(!run.verdict.failsTheGate())
    }

    /// The legacy profile takes a key package of either kind: an engine offering `key_package.443`
    /// but not `key_package.30443` is certifiable (the run goes on), while a step that copies a
    /// member's kind-30443 key package is `unsupported` on it with the capability named. The twin:
    /// the same engine without `key_package.443` fails the profile's requirement.
    @Test func aKind443OnlyEngineIsLegacyButCannotServeAKind30443Copy() async throws {
        let legacyOnly = Self.ourEngine(declaringWithout: [.keyPackage], with: [.legacyKeyPackage])
        let plain = try await Self.run(legacyOnly, selection: .swift)
        #expect(plain.checks.allSatisfy { $0.check != ScenarioExecutor.requiredCapabilitiesCheck }, "\(plain.checks)")
        #expect(plain.notRun == nil, "\(plain.notRun ?? "")")

        let copying = try await Self.run(
            legacyOnly, inserting: "  - inject: { relay: keypackages, copy: { kind: 30443, author: bob }, age: 0s }\n",
            before: "  - create-group", file: "scenarios/key-package-failures/copy.yaml")
        #expect(copying.verdict == .unsupported, "\(copying.checks)")
        #expect(copying.notRun?.contains("bob's engine") == true && copying.notRun?.contains("key_package.30443") == true)

        let neither = Self.ourEngine(declaringWithout: [.keyPackage, .legacyKeyPackage])
        let failed = try await Self.run(neither, selection: .swift)
        let check = try #require(failed.checks.first { $0.check == ScenarioExecutor.requiredCapabilitiesCheck })
        #expect(failed.verdict == .fail && check.observed == "missing: key_package.30443", "\(check)")
    }
}

/// Our engine, except that `groups()` never answers in time (as a hung driver would).
struct GroupsTimeOutEngine: ForwardingEngine {
    let base: any ProtocolEngine
    func groups() async throws(EngineError) -> [GroupSnapshot] { throw EngineError(.timeout, "groups got no response within 120 s") }
}

/// Our engine, declaring its capabilities edited as a driver would list them: one it lacks (an
/// optional one, or one a profile requires), or key packages of the other kind only (MDK 0.7.0).
struct DeclaringEngine: ForwardingEngine {
    let base: any ProtocolEngine
    let removed: Set<EngineCapability>
    let added: Set<EngineCapability>
    func capabilities() async throws(EngineError) -> EngineCapabilities {
        let real = try await base.capabilities()
        return EngineCapabilities(name: real.name, version: real.version, capabilities: real.capabilities.subtracting(removed).union(added))
    }
}
