// Runs one scenario on one engine selection with one seed, in a fresh world, and judges it.
import DeterministicScheduler
import EngineInterface
import GroupCore
import InMemoryRelay
import Nostr
import ScenarioModel
import Simulation

/// Everything one run produced.
package struct Execution: Sendable {
    package var run: ScenarioRun
    /// What every member ended up with (nil when the run did not execute).
    package let outcome: Outcome?
    package let stepLog: [String]
    /// The whole trace, network and members merged in order (for capsules and `--trace`).
    package let trace: [TraceLine]
    /// Where each step began in `trace`.
    package var steps: [StepMark] = []
    /// The choice points met, when the run followed a schedule (`ScenarioExecutor.schedule`).
    package var choicePoints: [ChoicePoint] = []
    /// Every member's canonical snapshots at the end, when the executor collects them (the
    /// uninterrupted reference of a restart comparison, RestartReference.swift).
    var snapshots: (snapshots: [String: [String: RestartReference.Held]], failures: [String])?
}

/// Interprets a scenario's steps against a `World` and checks its expectations.
package struct ScenarioExecutor: Sendable {
    package let engines: EngineSet
    /// Unix time of virtual instant zero, the same for every engine (MDK reads the world's clock
    /// through its driver's shim); chosen by the caller, this module reads no clock.
    package let epochUnixSeconds: UInt64
    /// For the mutation test only: permission checks every member skips (see PermissionTable).
    package var disabledPermissionChecks: Set<PermissionCheck> = []
    /// For the visibility matrix's twin only: views every member's core shows unfiltered.
    package var bypassedVisibilityViews: Set<MessageView> = []
    /// For the action-outcome check's twin only: every member's core drops its actions' outcomes.
    package var dropsActionOutcomes = false
    /// For tests only: GroupCore's recovery rules every member runs with (all on by default), so a
    /// test can show a fault-matrix cell failing without one.
    package var recovery = CoreConfiguration.Behaviour.Recovery()
    /// Receives the run's trace as it happens (`run --trace`): a header, then after every step the
    /// entries it added, one formatted line each.
    package var traceSink: (@Sendable (String) -> Void)?
    /// A prescribed schedule (docs/explore.md): the world runs without jitter, so that concurrent
    /// frames arrive at the same instant, and takes these choices at its choice points (0: the
    /// default). nil: the seeded world of `run`, untouched.
    package var schedule: [Int]?
    /// Collect every member's canonical snapshots at the end of the run (`Execution.snapshots`).
    var collectsSnapshots = false
    /// The real-network lane (RealNetworkLane.swift): what starts each run's relay processes. nil:
    /// the in-memory world. Runs on it are judged by end state and oracles, never by fingerprint.
    package var realNetwork: (any RealNetworkLauncher)?

    package init(engines: EngineSet, epochUnixSeconds: UInt64) {
        self.engines = engines
        self.epochUnixSeconds = epochUnixSeconds
    }

    static let scenarioClause = Clause("marmot-conform", "scenario execution")
    /// The check that fails a run whose engine lacks what the run's profile requires (the
    /// certification report lists the missing capabilities from it).
    package static let requiredCapabilitiesCheck = "engine offers what the profile requires"
    static let requirementsClause = Clause("marmot-conform", "required capabilities")
    static let stateClause = Clause("GroupCore", "state updates")
    static let convergenceClause = Clause("MIP-03", "Commit Message Race Conditions")
    /// Seeded extra latency per frame, up to this much on top of the link's 20 ms, so that
    /// different seeds explore different timings (frames never overtake each other on one link).
    static let jitter = VirtualDuration.milliseconds(20)

    /// Runs `scenario` with `seed` on `selection` (members that pin an engine keep theirs); `profile`
    /// is the run's Marmot profile, every member's unless the member names its own (`profile:`).
    package func execute(
        _ scenario: Scenario, seed: UInt64, selection: EngineSelection, reproduce: String, profile: MarmotProfile = .standard
    ) async -> Execution {
        guard let launcher = realNetwork else {
            return await execute(scenario, seed: seed, selection: selection, reproduce: reproduce, profile: profile, lane: nil)
        }
        var run = ScenarioRun(scenario: scenario.name, file: scenario.file, engine: selection.rawValue, seed: seed, reproduce: reproduce)
        run.lane = RealNetworkLane.name
        if let reason = RealNetworkLane.unsupported(scenario, launcher: launcher) {
            run.notRun = reason
            return Execution(run: run, outcome: nil, stepLog: [], trace: [])
        }
        let lane: any RealNetworkRun
        do {
            lane = try await launcher.start(RealNetworkLane.relays(scenario))
        } catch {
            run.checks.append(
                CheckResult(
                    check: "real relays start", clause: RealNetworkLane.clause, verdict: .error,
                    detail: "could not start the run's relays: \(error)"))
            return Execution(run: run, outcome: nil, stepLog: [], trace: [])
        }
        var execution = await execute(scenario, seed: seed, selection: selection, reproduce: reproduce, profile: profile, lane: lane)
        // Stopped on every path the run took; a relay that would not stop is infrastructure too.
        let stopFailures = await lane.stop()
        if !stopFailures.isEmpty {
            execution.run.checks.append(
                CheckResult(
                    check: "real relays stop", clause: RealNetworkLane.clause, verdict: .error,
                    detail: stopFailures.joined(separator: "; ")))
        }
        return execution
    }

    private func execute(
        _ scenario: Scenario, seed: UInt64, selection: EngineSelection, reproduce: String, profile: MarmotProfile,
        lane: (any RealNetworkRun)?
    ) async -> Execution {
        var run = ScenarioRun(scenario: scenario.name, file: scenario.file, engine: selection.rawValue, seed: seed, reproduce: reproduce)
        if lane != nil { run.lane = RealNetworkLane.name }
        let memberEngines = engines.assignment(for: scenario, selection: selection)
        // Every engine a member runs must be one the run registered.
        if let missing = Set(memberEngines.values).map(\.description).sorted().first(where: { engines.entries[$0] == nil }) {
            run.notRun = "engine '\(missing)' is not available in this run"
            return Execution(run: run, outcome: nil, stepLog: [], trace: [])
        }
        let assignment = memberEngines.compactMapValues(\.name)
        let infrastructure = InfrastructureLog()
        let world = World(
            configuration: worldConfiguration(scenario, seed: seed),
            makeEngine: { context in
                guard let entry = assignment[context.label].flatMap({ engines.entries[$0] }) else {
                    throw EngineError(.unknownInstance, "no engine assigned to \(context.label)")
                }
                return MonitoredEngine(
                    base: try await entry.factory(context), label: context.label, log: infrastructure, crash: context.crashSwitch)
            })
        if let lane { world.network.attachExternal(lane.links) }
        if let schedule {
            // Choices open at the first `parallel` step; a scenario without one is all race.
            var choices = ScheduleChoices(prescribed: schedule)
            choices.isOpen = !scenario.steps.contains { if case .parallel = $0.action { true } else { false } }
            world.network.choices = choices
        }
        var interpreter = StepInterpreter(world: world, scenario: scenario, seed: seed)
        interpreter.traceSink = traceSink
        traceSink?("--- trace of \(scenario.file) [\(selection), seed \(seed)]")
        do {
            for member in scenario.members {
                _ = try await world.addMember(member.label, options: memberOptions(member, scenario: scenario, profile: profile))
            }
        } catch {
            // Not a skip: the engine exists but could not start (a driver that died, a launch failure).
            run.checks.append(
                CheckResult(
                    check: "members' engines start", clause: Self.scenarioClause, verdict: .error,
                    detail: "could not start the members' engines: \(error)"))
            return Execution(run: run, outcome: nil, stepLog: [], trace: RunTrace.of(world))
        }
        let profiles = Dictionary(uniqueKeysWithValues: scenario.members.map { ($0.label, Self.profile(of: $0, run: profile)) })
        var unrunnable = await interpreter.unspokenProfile(profiles, run: profile)
        if unrunnable == nil { unrunnable = await interpreter.missingCapability() }
        switch unrunnable {
        case .lacking(let reason)?:
            run.notRun = reason
            return Execution(run: run, outcome: nil, stepLog: [], trace: RunTrace.of(world))
        case .unanswered(let reason)?:
            run.checks.append(CheckResult(check: "engine capabilities", clause: Self.scenarioClause, verdict: .error, detail: reason))
            return Execution(run: run, outcome: nil, stepLog: [], trace: RunTrace.of(world))
        case .uncertifiable(let reason, let missing)?:
            run.checks.append(
                CheckResult(
                    check: Self.requiredCapabilitiesCheck, clause: Self.requirementsClause, verdict: .fail,
                    expected: profile.requiredCapabilities.map(\.rawValue).joined(separator: ", "),
                    observed: "missing: " + missing.joined(separator: ", "), detail: reason))
            return Execution(run: run, outcome: nil, stepLog: [], trace: RunTrace.of(world))
        case nil:
            break
        }
        run.checks += await interpreter.run(scenario.steps)
        // Let what the steps set in motion finish before judging.
        _ = await world.runUntilQuiescent()
        // The oracles' own traffic (the decryptability probe) is measurement, not the scenario: no choices.
        world.network.choices?.isOpen = false
        interpreter.streamTrace()
        run.checks += interpreter.unmatchedSelectors()
        run.interleaving = Interleaving.describe(orders: interpreter.orders, trace: world.network.trace, members: world.labels)
        run.checks += await stateChecks(world)
        run.checks.append(await MessageOracles.noLostMessages(interpreter.sent, in: world))
        run.checks.append(await MessageOracles.noMemberAhead(in: world))
        run.checks.append(await ActionOutcomeCheck.check(in: world))
        let (outcome, reads) = await Observation.outcome(of: world)
        if let failed = reads.errorCheck("read members' outcome", clause: Self.scenarioClause) { run.checks.append(failed) }
        run.checks += await ExpectationChecks.check(scenario.expectations, outcome: outcome, world: world, file: scenario.file)
        if scenario.decryptable { run.checks.append(await MessageOracles.probe(in: world)) }
        run.checks.append(infrastructureCheck(infrastructure, restarts: world.restartFailures))
        run.checks += await restartChecks(scenario, world: world, seed: seed, selection: selection, reproduce: reproduce, profile: profile)
        let snapshots = collectsSnapshots ? await RestartReference.snapshots(of: world) : nil
        if let lane { run.checks.append(RealNetworkLane.check(world, run: lane)) }
        if lane == nil, engines.entries.filter({ Set(assignment.values).contains($0.key) }).allSatisfy({ $0.value.deterministic }) {
            run.fingerprint = world.fingerprint
        }
        var execution = Execution(run: run, outcome: outcome, stepLog: interpreter.log, trace: RunTrace.of(world), steps: interpreter.marks)
        execution.choicePoints = world.network.choices?.points ?? []
        execution.snapshots = snapshots
        return execution
    }

    func worldConfiguration(_ scenario: Scenario, seed: UInt64) -> WorldConfiguration {
        var configuration = plainWorldConfiguration(scenario, seed: seed)
        configuration.persistent = Self.restarts(scenario.steps)
        return configuration
    }

    /// Whether a scenario restarts members (a `restart` step or fault): only such runs persist
    /// members' state, so that every other run keeps its speed and writes nothing.
    static func restarts(_ steps: [Step]) -> Bool {
        steps.contains { (step: Step) -> Bool in
            switch step.action {
            case .restart, .crash: return true
            case .fault(let fault): return fault.kind == .restart
            default: return restarts(step.substeps)
            }
        }
    }

    private func plainWorldConfiguration(_ scenario: Scenario, seed: UInt64) -> WorldConfiguration {
        let jitter = schedule == nil ? Self.jitter : .zero
        guard !scenario.relays.isEmpty else { return WorldConfiguration(seed: seed, epochUnixSeconds: epochUnixSeconds, jitter: jitter) }
        let relays = scenario.relays.map { relay in
            WorldConfiguration.RelaySpec(
                relay.name, role: Self.role(relay.roles.first),
                policy: Self.policy(relay.policies, maximumEventBytes: relay.maximumEventBytes, maximumResults: relay.maximumResults),
                startsDown: relay.policies.contains(.down))
        }
        return WorldConfiguration(seed: seed, epochUnixSeconds: epochUnixSeconds, relays: relays, jitter: jitter)
    }

    /// A relay's rules from the scenario's policies (`down` is a state, handled by the caller)
    /// and its declared event limit, if any.
    static func policy(_ names: [RelayPolicyName], maximumEventBytes: Int? = nil, maximumResults: Int? = nil) -> RelayPolicy {
        var policy = RelayPolicy()
        policy.defaultLimit = maximumResults
        if let maximumEventBytes {
            policy.maximumEventBytes = maximumEventBytes
            // The EVENT frame around an event of that size must get through too.
            policy.maximumFrameBytes = max(policy.maximumFrameBytes, maximumEventBytes + RelayPolicy.eventFrameOverheadBytes)
        }
        for name in names {
            switch name {
            case .rejectProtected: policy.acceptsProtectedEvents = false
            case .requireAuth: policy.giftWrapsRequireAuth = true
            case .keepsExpired: policy.honoursExpiration = false
            case .hung: policy.answers = false
            case .down: break
            }
        }
        return policy
    }

    /// The world relay's role: a relay's first role (`discovery`, or none, serves every kind).
    static func role(_ name: RelayRoleName?) -> RelayRole {
        switch name {
        case .keyPackages?: .keyPackage
        case .inbox?: .inbox
        case .group?: .group
        case .discovery?, nil: .general
        }
    }

    /// The profile a member speaks: its own `profile:`, else the run's.
    package static func profile(of member: MemberSpec, run: MarmotProfile) -> MarmotProfile {
        member.profile.map(MarmotProfile.init) ?? run
    }

    /// A member's relays per role (with no relays declared, the world's standard set) and its profile.
    func memberOptions(_ member: MemberSpec, scenario: Scenario, profile: MarmotProfile = .standard) -> MemberOptions {
        var options = relayOptions(member, scenario: scenario)
        options.marmotProfile = Self.profile(of: member, run: profile)
        options.retainedEventIDs = member.retainedEventIDs
        return options
    }

    private func relayOptions(_ member: MemberSpec, scenario: Scenario) -> MemberOptions {
        var behaviour = CoreConfiguration.Behaviour(
            publishesKeyPackage: member.publishesKeyPackage, ownCommitMerge: .init(member.ownCommitMerge),
            chatRelay: member.chatRelay.map(ChatRelayConduct.init), disabledPermissionChecks: disabledPermissionChecks)
        behaviour.protectsKeyPackage = member.protectsKeyPackage
        behaviour.recovery = recovery
        behaviour.bypassedVisibilityViews = bypassedVisibilityViews
        behaviour.dropsActionOutcomes = dropsActionOutcomes
        behaviour.handsUnverifiedGroupEventsToEngine = member.handsUnverifiedGroupEvents
        behaviour.invitations = member.invitations == .ask ? .ask : .automatic
        guard !scenario.relays.isEmpty else {
            var options = MemberOptions(profileName: member.profileName, behaviour: behaviour)
            options.updateDelivery = member.updateDelivery.map(UpdatePerturbation.init)
            options.profilePicture = member.picture
            return options
        }
        let own = scenario.relays.filter { member.relays.isEmpty || member.relays.contains($0.name) }
        func with(_ role: RelayRoleName) -> [String] {
            let named = own.filter { $0.roles.contains(role) }.map(\.name)
            return named.isEmpty ? own.map(\.name) : named
        }
        var options = MemberOptions(
            profileName: member.profileName, discoveryRelays: with(.discovery), keyPackageRelays: with(.keyPackages),
            inboxRelays: with(.inbox), groupRelays: with(.group), behaviour: behaviour)
        options.updateDelivery = member.updateDelivery.map(UpdatePerturbation.init)
        options.profilePicture = member.picture
        return options
    }

    /// Whether every engine call of the run was answered (a core records a dead driver as one of
    /// its errors and carries on; the run must not be judged on what followed).
    func infrastructureCheck(_ log: InfrastructureLog, restarts: [String] = []) -> CheckResult {
        let failures = log.failures + restarts
        return CheckResult(
            check: "engines answered", clause: Self.scenarioClause, verdict: failures.isEmpty ? .pass : .error,
            expected: "every engine call answered (no dead, hung or malformed driver), every restart carried out",
            observed: failures.isEmpty ? "all answered" : "\(failures.count) unanswered",
            detail: failures.prefix(5).joined(separator: "; ") + (failures.count > 5 ? "; …" : ""))
    }

    /// Always-on invariants of GroupCore (rev continuity, state equal to the last update).
    func stateChecks(_ world: World) async -> [CheckResult] {
        let problems = await world.updateStreamViolations()
        let hostProblems = await world.hostViewViolations()
        let hosts = world.hostSummaries()
        return [
            CheckResult(
                check: "rev continuity", clause: Self.stateClause, verdict: problems.isEmpty ? .pass : .fail,
                expected: "every update has rev = previous + 1", observed: problems.isEmpty ? nil : problems.joined(separator: "; ")),
            CheckResult(
                check: "host view", clause: Self.stateClause, verdict: hostProblems.isEmpty ? .pass : .fail,
                expected: "each member's UI host, dropping stale updates and resyncing after a gap, shows the core's state",
                observed: hostProblems.isEmpty
                    ? (hosts.isEmpty ? nil : hosts.joined(separator: "; ")) : hostProblems.joined(separator: "; ")),
        ]
    }
}
