// The two Marmot profiles in the runner (issue 28): scenario files name a member's profile and the
// profiles a scenario applies to; a run skips the others as not applicable; the engine factory gets
// each member's profile; an engine that does not declare a member's profile makes the scenario
// unsupported; pinned fingerprints of current runs have keys of their own.
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

@Suite struct MarmotProfileRunTests {
    static let twoProfiles = """
        name: one current member among legacy ones
        profiles: [legacy]
        members:
          - label: alice
          - label: cur
            engine: swift
            profile: current
        steps:
          - deliver: all
        """

    @Test func readsMemberProfilesAndApplicability() throws {
        let scenario = try Scenario(yaml: Self.twoProfiles, file: "p.yaml")
        #expect(scenario.members.map(\.profile) == [nil, .current])
        #expect(scenario.profiles == [.legacy])
        #expect(scenario.applies(to: .legacy) && !scenario.applies(to: .current))
        // Without `profiles:` a scenario applies to every profile.
        let plain = try Scenario(yaml: "name: x\nmembers: [{ label: a }]\nsteps: [{ deliver: all }]\n", file: "x.yaml")
        #expect(plain.profiles == [.legacy, .current] && plain.members[0].profile == nil)
    }

    /// Each malformed profile field fails at its own `file:line:column`.
    @Test(
        arguments: [
            ("name: x\nprofiles: [current, curent]\nmembers: [{ label: a }]\nsteps: [{ deliver: all }]\n", "p.yaml:2:21", "curent"),
            ("name: x\nprofiles: [legacy, legacy]\nmembers: [{ label: a }]\nsteps: [{ deliver: all }]\n", "p.yaml:2:20", "listed twice"),
            ("name: x\nprofiles: []\nmembers: [{ label: a }]\nsteps: [{ deliver: all }]\n", "p.yaml:2:11", "names no profile"),
            ("name: x\nmembers:\n  - label: a\n    profile: modern\nsteps: [{ deliver: all }]\n", "p.yaml:4:14", "modern"),
        ] as [(String, String, String)])
    func profileFieldErrorsArePositioned(yaml: String, position: String, says: String) {
        var error: ScenarioError?
        do { _ = try Scenario(yaml: yaml, file: "p.yaml") } catch let caught { error = caught }
        #expect(error?.code == .invalidValue, "\(String(describing: error))")
        #expect(error?.location.description == position, "\(String(describing: error))")
        #expect(error?.description.contains(says) == true, "\(String(describing: error))")
    }

    @Test func aRunSkipsScenariosThatDoNotApplyToItsProfile() throws {
        let legacyOnly = try Scenario(yaml: Self.twoProfiles, file: "scenarios/x/legacy-only.yaml")
        let both = try Scenario(yaml: "name: y\nmembers: [{ label: a }]\nsteps: [{ deliver: all }]\n", file: "scenarios/x/both.yaml")
        let scenarios = [(legacyOnly, text: ""), (both, text: "")]
        let current = ConformanceRunner.applicable(scenarios, to: .current)
        #expect(current.applying.map(\.0.file) == ["scenarios/x/both.yaml"])
        #expect(
            current.notApplicable == [NotApplicable(file: "scenarios/x/legacy-only.yaml", scenario: legacyOnly.name, profiles: [.legacy])])
        #expect(
            current.notApplicable[0].line(under: .current)
                == "scenarios/x/legacy-only.yaml: not applicable to profile current (applies to legacy)")
        let legacy = ConformanceRunner.applicable(scenarios, to: .legacy)
        #expect(legacy.applying.count == 2 && legacy.notApplicable.isEmpty)
    }

    /// Legacy pins keep their keys; a current run's pins are keyed apart.
    @Test func currentRunsPinFingerprintsUnderKeysOfTheirOwn() throws {
        let scenario = try Scenario(yaml: Self.twoProfiles, file: "scenarios/x/y.yaml")
        #expect(ConformanceRunner.fingerprintKey(scenario, selection: .swift, seed: 3, profile: .legacy) == "x-y swift seed 3")
        #expect(
            ConformanceRunner.fingerprintKey(scenario, selection: .swift, seed: 3, profile: .current) == "x-y swift seed 3 profile current")
    }

    /// The factory is handed each member's profile (its own `profile:`, else the run's); an engine
    /// that declares no `profile.current` makes the scenario unsupported for a member the scenario
    /// gives that profile, and fails it for a member of the run's profile (the one under
    /// certification), with the reason.
    @Test func theFactoryGetsEachMembersProfileAndAnEngineWithoutItIsUnsupported() async throws {
        let seen = Mutex<[String: MarmotProfile]>([:])
        let accounts = Mutex<[String: String]>([:])
        let engines = EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    seen.withLock { $0[context.label] = context.profile }
                    accounts.withLock { $0[context.label] = context.accountKey?.publicKey.hex }
                    return ClaimsLegacyProfileOnly(base: NativeSwiftEngine(generator: context.generator, clock: context.clock))
                }, deterministic: true)
        ])
        let executor = ScenarioExecutor(engines: engines, epochUnixSeconds: 1_700_000_000)
        let scenario = try Scenario(yaml: Self.twoProfiles, file: "p.yaml")
        let run = await executor.execute(scenario, seed: 1, selection: .swift, reproduce: "", profile: .legacy).run
        #expect(seen.withLock { $0 } == ["alice": .legacy, "cur": .current])
        // Each member's own account key (a current engine signs its leaves' identity proofs with it).
        let keys = accounts.withLock { $0 }
        #expect(keys.count == 2 && keys["alice"] != nil && keys["cur"] != nil && keys["alice"] != keys["cur"], "\(keys)")
        #expect(run.verdict == .unsupported, "\(run.checks)")
        #expect(run.notRun?.contains("cur's engine") == true && run.notRun?.contains("profile.current") == true, "\(run.notRun ?? "")")
        // The run's profile reaches every member without its own.
        seen.withLock { $0 = [:] }
        let current = await executor.execute(scenario, seed: 1, selection: .swift, reproduce: "", profile: .current).run
        #expect(seen.withLock { $0 } == ["alice": .current, "cur": .current])
        #expect(current.verdict == .fail && current.notRun == nil, "\(current.checks)")
        let requirement = try #require(current.checks.first { $0.check == ScenarioExecutor.requiredCapabilitiesCheck })
        #expect(requirement.detail.contains("alice's engine") && requirement.observed == "missing: profile.current", "\(requirement)")
    }

    /// The twin: the same scenario on engines that declare the members' profiles runs and passes.
    @Test func anEngineThatDeclaresTheProfileRuns() async throws {
        let executor = ScenarioExecutor(engines: Self.claimingEngines(), epochUnixSeconds: 1_700_000_000)
        let scenario = try Scenario(yaml: Self.twoProfiles, file: "p.yaml")
        let run = await executor.execute(scenario, seed: 1, selection: .swift, reproduce: "", profile: .legacy).run
        #expect(run.notRun == nil && run.verdict == .pass, "\(run.notRun ?? "") \(run.checks)")
    }

    /// The committed cross-profile scenario where a current member invites legacy ones: its app
    /// refuses their legacy key packages with profile_mismatch and tells its user
    /// (core.profileMismatch); the legacy members lose nothing. The current member runs on our
    /// legacy engine claiming the current profile (the refusal is the app core's: it reads the key
    /// package's tags before any engine sees it), so this holds before the current engine exists.
    @Test func aCurrentMemberRefusesLegacyKeyPackagesAndSaysWhy() async throws {
        let file = "scenarios/cross-profile/current-inviter-legacy-invitees.yaml"
        let text = try String(contentsOf: Vectors.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
        let scenario = try Scenario(yaml: text, file: file)
        let executor = ScenarioExecutor(engines: Self.claimingEngines(), epochUnixSeconds: 1_700_000_000)
        let run = await executor.execute(scenario, seed: 1, selection: .swift, reproduce: "", profile: .legacy).run
        #expect(run.verdict == .pass, "\(run.notRun ?? "") \(run.checks.filter { $0.verdict != .pass })")
        // Its twin: the same members all legacy invite each other, so the expectation of refusals fails.
        let allLegacy = try Scenario(yaml: text.replacingOccurrences(of: ", profile: current", with: ""), file: file)
        let twin = await executor.execute(allLegacy, seed: 1, selection: .swift, reproduce: "", profile: .legacy).run
        #expect(twin.verdict == .fail, "\(twin.checks)")
    }

    /// An engine's own `profile_mismatch` (a key package its tags do not give away) reaches the
    /// user the same way: failed peer `profile_mismatch`, error `core.profileMismatch`; the twin
    /// engine refusing with another code gives `invalid_key_package` and no such error.
    @Test(arguments: [(EngineError.Code.profileMismatch, "profile_mismatch", true), (.invalidKeyPackage, "invalid_key_package", false)])
    func anEnginesProfileMismatchIsToldToTheUser(code: EngineError.Code, reason: String, told: Bool) async throws {
        let yaml = """
            name: alice's engine refuses bob's key package
            members: [{ label: alice }, { label: bob }]
            steps:
              - deliver: all
              - create-group: { by: alice, with: [bob], name: Team }
              - deliver: all
            expect:
              members:
                alice: { chats: [], failed-peers: [{ peer: bob, reason: \(reason) }] }
            """
        let engines = EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    let engine = NativeSwiftEngine(generator: context.generator, clock: context.clock)
                    return context.label == "alice" ? RefusesKeyPackages(base: engine, code: code) : engine
                }, deterministic: true)
        ])
        let executor = ScenarioExecutor(engines: engines, epochUnixSeconds: 1_700_000_000)
        let execution = await executor.execute(try Scenario(yaml: yaml, file: "k.yaml"), seed: 1, selection: .swift, reproduce: "")
        #expect(execution.run.verdict == .pass, "\(execution.run.checks.filter { $0.verdict != .pass })")
        guard case .map(let members)? = execution.outcome, case .map(let alice)? = members["alice"],
            case .list(let errors)? = alice["errors"]
        else {
            Issue.record("no errors in alice's outcome")
            return
        }
        #expect(errors.contains(.string("core.profileMismatch")) == told, "\(errors)")
    }

    /// Our engine, whose instances of the current profile declare `profile.current` (test double:
    /// their bytes stay legacy ones; only what the runner and the app core decide is under test).
    static func claimingEngines() -> EngineSet {
        EngineSet([
            "swift": EngineSet.Entry(
                factory: { context in
                    let engine = NativeSwiftEngine(generator: context.generator, clock: context.clock)
                    return context.profile == .current ? ClaimsCurrentProfile(base: engine) : engine
                }, deterministic: true)
        ])
    }
}

/// Our engine, declaring that it speaks the current profile (and not the legacy one).
struct ClaimsCurrentProfile: ForwardingEngine {
    let base: any ProtocolEngine
    func capabilities() async throws(EngineError) -> EngineCapabilities {
        let real = try await base.capabilities()
        return EngineCapabilities(
            name: real.name, version: real.version, capabilities: real.capabilities.union([.profileCurrent]).subtracting([.profileLegacy]))
    }
}

/// Our engine, declaring the legacy profile only (as every driver written before profiles does).
struct ClaimsLegacyProfileOnly: ForwardingEngine {
    let base: any ProtocolEngine
    func capabilities() async throws(EngineError) -> EngineCapabilities {
        let real = try await base.capabilities()
        return EngineCapabilities(
            name: real.name, version: real.version, capabilities: real.capabilities.subtracting([.profileCurrent]))
    }
}

/// Our engine, refusing every key package it is asked to validate with `code`.
struct RefusesKeyPackages: ForwardingEngine {
    let base: any ProtocolEngine
    let code: EngineError.Code
    func validateKeyPackage(_ event: Event) async throws(EngineError) { throw EngineError(code, "refused by the test") }
}
