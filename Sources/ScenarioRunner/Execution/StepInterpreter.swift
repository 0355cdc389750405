// Carries out scenario steps on a World. Steps arrive typed (ScenarioModel decoded them when the
// file loaded): `perform` switches on the step's action, and the extensions carry out each concern
// (+MemberActions: GroupCore actions; +World: waits, faults and parallel blocks; +Inject;
// +Capabilities: what the engines must offer; +Selectors: faults that matched nothing).
import DeterministicScheduler
import EngineInterface
import GroupCore
import InMemoryRelay
import Nostr
import ScenarioModel
import Simulation

struct StepInterpreter {
    let world: World
    let scenario: Scenario
    var generator: SeededGenerator
    var log: [String] = []
    /// Where each step began in the merged trace (for sequence diagrams).
    var marks: [StepMark] = []
    /// Fault steps that select frames, for the matched-nothing report.
    var faultSteps: [FaultStepRecord] = []
    /// Where `run --trace` output goes, and how many merged entries it has had.
    var traceSink: (@Sendable (String) -> Void)?
    var traceStreamed = 0
    /// Hold step name → its fault rule, removed when the hold is released.
    var holds: [String: Int] = [:]
    /// The order chosen for each parallel block, in step order.
    var orders: [String] = []
    /// Parallel step name → the renames it raced, for `check: { race-winner: … }`.
    var races: [String: RenameRace] = [:]
    /// Every message a `send` step dispatched, for the no-lost-message oracle.
    var sent: [SentMessage] = []
    /// Invitations members declined, as `label mls-group-id`: a member that declined is not a
    /// recipient of the group's messages though the others still list it (it never joined).
    var declinedInvitations: Set<String> = []
    var stepNumber = 0
    /// create-link step name → the link's admin and token, for join-by-link steps.
    var links: [String: (admin: PublicKey, token: String, text: String)] = [:]

    init(world: World, scenario: Scenario, seed: UInt64) {
        self.world = world
        self.scenario = scenario
        generator = SeededGenerator(seed: seed).child("scenario/parallel")
    }

    /// A step that cannot be carried out, reported as a failing check at its position.
    struct StepFailure: Error {
        let message: String
    }

    mutating func run(_ steps: [Step]) async -> [CheckResult] {
        var checks: [CheckResult] = []
        for step in steps {
            stepNumber += 1
            // The check identity (what the ledger names) carries no file position: see StepIdentity.
            let title = StepIdentity.title(of: step, number: stepNumber)
            streamTrace()
            world.network.choices?.context = "step \(stepNumber) orders \(orders)"
            if case .parallel = step.action { world.network.choices?.isOpen = true }  // the setup is over (docs/explore.md)
            traceSink?("== \(title) at \(step.location)")
            log.append("\(world.now) \(title) at \(step.location)")
            marks.append(StepMark(title: title, location: "\(step.location)", traceIndex: world.network.trace.count + world.log.count))
            do {
                checks += try await perform(step, title: title).map { StepIdentity.locate($0, at: step.location) }
            } catch let failure as StepFailure {
                checks.append(
                    StepIdentity.locate(
                        CheckResult(
                            check: title, clause: ScenarioExecutor.scenarioClause, verdict: .fail, detail: failure.message),
                        at: step.location))
                log.append("  failed: \(failure.message)")
                return checks  // later steps would act on a world the scenario did not intend
            } catch let failure as EngineError {
                // Steps only read engines (to find a message, a group): a failed read is no verdict.
                checks.append(
                    CheckResult(
                        check: title, clause: ScenarioExecutor.scenarioClause, verdict: .error, detail: "engine read failed: \(failure)"))
                log.append("  error: \(failure)")
                return checks
            } catch {
                checks.append(
                    StepIdentity.locate(
                        CheckResult(
                            check: title, clause: ScenarioExecutor.scenarioClause, verdict: .fail, detail: "\(error)"), at: step.location))
                return checks
            }
        }
        return checks
    }

    mutating func perform(_ step: Step, title: String) async throws -> [CheckResult] {
        switch step.action {
        case .member(let member):
            if case .sendMany(let text, let count, let every, let group) = member.action {
                try await sendMany(text, count: count, every: every, group: group, by: member.by)
                return []
            }
            let action = try await appAction(for: member)
            await dispatch(member.by, action)
            if case .createLink = member.action, let name = step.name { await noteLink(made: name, by: member.by) }
        case .deliver:
            _ = await world.runUntilQuiescent()
        case .advance(let duration):
            await world.run(for: duration.virtual)
        case .parallel(let substeps):
            try await runParallel(substeps, name: step.name)
        case .fault(let fault):
            let (networkStart, logStart) = (world.network.trace.count, world.log.count)
            try applyFault(fault, stepName: step.name)
            noteFault(step, title: title, networkStart: networkStart, logStart: logStart)
        case .inject(let inject):
            let (networkStart, logStart) = (world.network.trace.count, world.log.count)
            try self.inject(inject)
            noteFault(step, title: title, networkStart: networkStart, logStart: logStart)
        case .restart(let member, let down):
            world.restart(member, down: down.virtual)
        case .crash(let members, let at, let down, let damage):
            guard let point = CrashPoint(rawValue: at.rawValue) else {
                return [
                    CheckResult(
                        check: title, clause: ScenarioExecutor.scenarioClause, verdict: .error, detail: "no crash point \(at.rawValue)")
                ]
            }
            var storeDamage: StoreDamage?
            if let damage, let member = members.first {
                let chatID = try await chat(of: member, named: damage.group)
                guard let group = try await world.member(member)?.engine.groups().first(where: { $0.nostrGroupID == chatID }) else {
                    throw StepFailure(message: "\(member)'s engine holds no group \(chatID.prefix(8)) to damage")
                }
                storeDamage = StoreDamage(group: group.mlsGroupID, kind: damage.kind == .corrupt ? .corrupt : .missing)
            }
            world.armCrash(members, at: point, down: down.virtual, damage: storeDamage)
        case .release(let hold):
            if let rule = holds.removeValue(forKey: hold) { world.network.removeFault(rule) }
            world.network.release(hold: hold)
        case .check(let check):
            return try await self.check(check, title: title)
        case .wait(let wait):
            return [await self.wait(wait, title: title)]
        case .attack(let attack):
            return try await self.attack(attack, title: title)
        }
        return []
    }

    /// A `check` step: the race winner it names, then its expectations against the members' state now.
    func check(_ check: CheckStep, title: String) async throws -> [CheckResult] {
        var results: [CheckResult] = []
        if let name = check.raceWinner {
            guard let renames = races[name] else {
                throw StepFailure(message: "race-winner: '\(name)' is not a parallel step of renames that ran before this check")
            }
            results.append(await renames.check("\(title): race winner of '\(name)'", in: world))
        }
        let (outcome, reads) = await Observation.outcome(of: world)
        if let failed = reads.errorCheck("\(title): read members' state", clause: ScenarioExecutor.scenarioClause) {
            results.append(failed)
        }
        return results
            + (await ExpectationChecks.check(
                check.expectations, outcome: outcome, world: world, file: scenario.file, context: title))
    }

    /// A `send-many` step: each message is sent like a `send` step's (and counted by `no lost
    /// message`), then the world's clock moves on by `every`, delivering what is due.
    mutating func sendMany(_ text: String, count: Int, every: ScenarioDuration, group: String?, by: String) async throws {
        let chatID = try await chat(of: by, named: group)
        let width = String(count).count
        for index in 1...count {
            let number = String(index)
            await dispatch(
                by, .sendMessage(chatID: chatID, text: "\(text) \(String(repeating: "0", count: width - number.count))\(number)"))
            if index < count { await world.run(for: every.virtual) }
        }
    }

    /// Dispatches a member action and returns the first group event (kind 445) the member published
    /// while handling it; a message is recorded with the group's members at that moment.
    @discardableResult
    mutating func dispatch(_ by: String, _ action: AppAction) async -> Event? {
        var recipients: [String] = []
        if case .sendMessage(let chatID, _) = action {
            let names = Observation.labels(in: world)
            let chat = await world.member(by)?.core.state().chatList.first { $0.chatID == chatID }
            recipients = (chat?.members ?? []).compactMap { names[$0.pubkey] }.filter { $0 != by }.sorted()
            if !declinedInvitations.isEmpty, let engine = world.member(by)?.engine,
                let group = (try? await engine.groups())?.first(where: { $0.nostrGroupID == chatID })
            {
                recipients.removeAll { declinedInvitations.contains("\($0) \(group.mlsGroupID.hex)") }
            }
        }
        if case .declineInvitation(let welcomeID) = action,
            let invitation = await world.member(by)?.core.state().invitations?.first(where: { $0.welcomeID == welcomeID })
        {
            declinedInvitations.insert("\(by) \(invitation.groupID)")
        }
        let before = world.published.count
        await world.dispatch(by, action)
        let event = world.published[before...].first { $0.member == by && $0.event.kind == .groupEvent }?.event
        if case .sendMessage(let chatID, let text) = action {
            sent.append(SentMessage(sender: by, chatID: chatID, text: text, recipients: recipients, event: event))
        }
        return event
    }
}

extension ScenarioDuration {
    /// The duration on the world's clock (scenario durations are never negative: the parser has no sign).
    var virtual: VirtualDuration { .milliseconds(UInt64(clamping: milliseconds)) }
}
