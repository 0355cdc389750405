// The restart comparison (marmot-protocol/marmot, foundation/conformance.md, "Crash and restart
// scenarios"; docs/restart-matrix.md): a scenario that arms crash points is run twice with the same
// seed and the same later actions, once as written and once without its `crash` steps (the
// uninterrupted reference). After required work completes, every member's canonical snapshot of
// every group it holds must equal the reference's, field by field; effects are compared as lists,
// so a duplicated or lost effect shows. A crash point armed and never reached fails the run: a cell
// that crashes nothing tests nothing.
import EngineInterface
import GroupCore
import ScenarioModel
import Simulation

enum RestartReference {
    /// One member's group at the end of a run: its canonical snapshot, and the meaning of the
    /// messages it holds (`sender kind content`, sorted, repeated as often as held).
    struct Held: Sendable {
        let snapshot: ProtocolSnapshot
        let messages: [String]
        /// What the member's app derived from the group and shows (name, epoch, whether it ended,
        /// how many members): boundary 4's derived work, which the snapshot, read from the
        /// engine, does not see. Nil when the app holds no chat of the group.
        var view: String? = nil
    }

    /// Fields whose values name events by id (dispositions by input event id, effects by rumor
    /// id). Events made after the crash carry a later `created_at` in the restarted run than in
    /// the reference (the member was down meanwhile), so the same meaning has another id: these
    /// two are compared by meaning instead (messages by sender, kind and content, as multisets;
    /// dispositions by how many inputs have each disposition), which still shows a duplicated or
    /// lost effect. Every other field is compared exactly.
    static let comparedByMeaning: Set<ProtocolSnapshot.FieldName> = [.dispositions, .effects]

    static let clause = Clause("foundation/conformance.md", "Crash and restart scenarios")
    static let reachedCheck = "every armed crash point was reached"
    static let equalCheck = "restarted members' snapshots equal the uninterrupted reference's"

    /// How many crash points the steps arm.
    static func crashCount(_ steps: [Step]) -> Int {
        steps.reduce(0) { count, step in
            if case .crash = step.action { return count + 1 }
            return count + crashCount(step.substeps)
        }
    }

    /// The steps without their `crash` steps: the uninterrupted reference run's.
    static func withoutCrashes(_ steps: [Step]) -> [Step] {
        steps.compactMap { step in
            if case .crash = step.action { return nil }
            if case .parallel(let inner) = step.action {
                return Step(
                    name: step.name, verb: step.verb, action: .parallel(withoutCrashes(inner)), requirement: step.requirement,
                    location: step.location)
            }
            return step
        }
    }

    /// Every member's snapshot of every group it holds, by member label and raw group id; a read
    /// that failed is named in `failures`.
    static func snapshots(of world: World) async -> (snapshots: [String: [String: RestartReference.Held]], failures: [String]) {
        var reads = MemberReads(world)
        let names = Observation.labels(in: world)
        var out: [String: [String: RestartReference.Held]] = [:]
        var chatLists: [String: [ChatSummary]] = [:]
        for label in world.labels { chatLists[label] = await reads.state(of: label)?.chatList ?? [] }
        var failures: [String] = []
        for label in world.labels {
            guard await reads.capabilities(of: label)?.supports(.protocolSnapshot) ?? false else { continue }
            guard let groups = await reads.groups(of: label) else {
                failures.append("\(label): groups unreadable")
                continue
            }
            for group in groups {
                guard let snapshot = await reads.protocolSnapshot(of: label, in: group) else {
                    failures.append("\(label): no snapshot of \(group.mlsGroupID.hex.prefix(16))")
                    continue
                }
                guard let messages = await reads.messages(of: label, in: group) else {
                    failures.append("\(label): messages of \(group.mlsGroupID.hex.prefix(16)) unreadable")
                    continue
                }
                // Boundary 7: a message a branch switch invalidated is an effect of its own kind.
                let invalidated = await reads.invalidatedMessages(of: label, in: group) ?? []
                let meaning = { (message: ReceivedMessage) in
                    "\(Observation.name(message.sender, names)) \(message.rumor.kind) \(timeless(message.rumor.content))"
                }
                out[label, default: [:]][group.mlsGroupID.hex] = Held(
                    snapshot: snapshot,
                    messages: (messages.map(meaning) + invalidated.map { "invalidated \(meaning($0))" }).sorted(),
                    view: (chatLists[label] ?? []).first { $0.addresses.contains(group.nostrGroupID) }.map(view))
            }
            // A group whose record the engine lost (boundary 8) is known to the app alone.
            for snapshot in await world.member(label)?.core.unrecoverableSnapshots() ?? [] {
                guard let group = snapshot.groupID.value else { continue }
                out[label, default: [:]][group] = Held(snapshot: snapshot, messages: [])
            }
        }
        return (out, failures)
    }

    /// A chat as the restart comparison compares it (``Held/view``).
    static func view(_ chat: ChatSummary) -> String {
        "name \(chat.groupName), epoch \(chat.epoch), \(chat.isRemoved ? "ended" : "active"), \(chat.members.count) other member(s)"
    }

    /// The disposition of an input of a branch MIP-03 did not select (our engine's snapshot).
    static let supersededDisposition = "superseded"

    /// Boundary 8: what the member whose `group` record was damaged must show of it instead of the
    /// reference's state: lifecycle `unrecoverable`, at least one later input, every one deferred
    /// as `missing_history` (none applied on the only branch left). Empty: as required.
    static func damageDifferences(_ held: Held?, name: String) -> [String] {
        guard let held else { return ["\(name): the damaged group is not held at all (the app lost it too)"] }
        var out: [String] = []
        let lifecycle = held.snapshot.lifecycle.value ?? "unsupported"
        if lifecycle != GroupCore.unrecoverableLifecycle {
            out.append("\(name): lifecycle: expected \(GroupCore.unrecoverableLifecycle), restarted \(lifecycle)")
        }
        let dispositions = held.snapshot.dispositions.value ?? []
        let later = dispositions.filter { $0.disposition == GroupCore.missingHistory }
        if later.isEmpty { out.append("\(name): no input deferred as \(GroupCore.missingHistory) (the cell checks nothing)") }
        let applied = dispositions.filter { $0.disposition != GroupCore.missingHistory }
        if lifecycle == GroupCore.unrecoverableLifecycle, !applied.isEmpty {
            out.append("\(name): inputs with another disposition: \(applied.map { "\($0.input.prefix(8)) \($0.disposition)" })")
        }
        return out
    }

    /// A message's content without the instant a control message carries (`"at":<seconds>`, the
    /// moment its sender made it): transport timing, later in the restarted run.
    static func timeless(_ content: String) -> String {
        guard content.hasPrefix("{\"at\":") else { return content }
        let rest = content.dropFirst(6).drop { $0.isNumber }
        return "{" + rest.drop { $0 == "," }
    }

    /// The differences between the restarted run's snapshots and the reference's, one phrase per
    /// path (`bob 7f3a…: effects.2: …`); a group one side holds and the other does not is one.
    /// `damaged`: the (member, raw group id hex) pairs whose record a crash damaged (boundary 8):
    /// those are held to ``damageDifferences`` instead of the reference.
    static func differences(
        restarted: [String: [String: RestartReference.Held]], reference: [String: [String: RestartReference.Held]],
        damaged: Set<[String]> = []
    ) -> [String] {
        var out: [String] = []
        for label in Set(restarted.keys).union(reference.keys).sorted() {
            let mine = restarted[label] ?? [:]
            let theirs = reference[label] ?? [:]
            for group in Set(mine.keys).union(theirs.keys).sorted() {
                let name = "\(label) \(group.prefix(8))"
                if damaged.contains([label, group]) {
                    out += damageDifferences(mine[group], name: name)
                    continue
                }
                guard let a = mine[group] else {
                    out.append("\(name): held only in the reference")
                    continue
                }
                guard let b = theirs[group] else {
                    out.append("\(name): held only after the restart")
                    continue
                }
                if a.view != b.view {
                    out.append("\(name): the app's view: reference \(b.view ?? "no chat"), restarted \(a.view ?? "no chat")")
                }
                if a.messages != b.messages {
                    let lost = b.messages.filter { message in
                        a.messages.filter { $0 == message }.count < b.messages.filter { $0 == message }.count
                    }
                    let extra = a.messages.filter { message in
                        a.messages.filter { $0 == message }.count > b.messages.filter { $0 == message }.count
                    }
                    out.append(
                        "\(name): effects by meaning: lost \(Set(lost).sorted().map { SnapshotComparison.shortened($0) }), "
                            + "duplicated or extra \(Set(extra).sorted().map { SnapshotComparison.shortened($0) })")
                }
                let counts = { (held: Held) -> [String: Int] in
                    Dictionary((held.snapshot.dispositions.value ?? []).map { ($0.disposition, 1) }, uniquingKeysWith: +)
                }
                if counts(a) != counts(b) {
                    out.append(
                        "\(name): input dispositions by count: reference \(counts(b).sorted { $0.key < $1.key }), restarted \(counts(a).sorted { $0.key < $1.key })"
                    )
                }
                for field in ProtocolSnapshot.FieldName.allCases where !comparedByMeaning.contains(field) {
                    switch (SnapshotComparison.projection(b.snapshot, field), SnapshotComparison.projection(a.snapshot, field)) {
                    case (.value(let expected), .value(let observed)):
                        for difference in expected.differences(from: observed, path: field.rawValue) {
                            out.append(
                                "\(name): \(difference.path): reference \(SnapshotComparison.shortened(difference.expected)), "
                                    + "restarted \(SnapshotComparison.shortened(difference.observed))")
                        }
                    case (.unsupported, .unsupported):
                        continue
                    case (.value, .unsupported(let reason)), (.unsupported(let reason), .value):
                        out.append("\(name): \(field.rawValue) given by one run only (\(reason))")
                    }
                }
            }
        }
        return out
    }
}

extension ScenarioExecutor {
    /// The restart checks of a scenario with crash steps (RestartReference): every armed point
    /// reached, and the snapshots equal to those of the same run without the crashes.
    func restartChecks(
        _ scenario: Scenario, world: World, seed: UInt64, selection: EngineSelection, reproduce: String, profile: MarmotProfile
    ) async -> [CheckResult] {
        let armed = RestartReference.crashCount(scenario.steps)
        guard armed > 0 else { return [] }
        var checks: [CheckResult] = []
        let happened = world.crashes.map { "\($0.member) at \($0.point.rawValue)" }
        checks.append(
            CheckResult(
                check: RestartReference.reachedCheck, clause: RestartReference.clause,
                verdict: happened.count == armed ? .pass : .fail, expected: "\(armed) crash(es)",
                observed: happened.isEmpty ? "none" : happened.joined(separator: "; ")))
        let restarted = await RestartReference.snapshots(of: world)
        var reference = scenario
        reference.steps = RestartReference.withoutCrashes(scenario.steps)
        let uninterrupted = await referenceRun(reference, seed: seed, selection: selection, reproduce: reproduce, profile: profile)
        guard let uninterrupted, restarted.failures.isEmpty, uninterrupted.failures.isEmpty else {
            let why = (restarted.failures + (uninterrupted?.failures ?? ["the reference run did not execute"])).joined(separator: "; ")
            checks.append(CheckResult(check: RestartReference.equalCheck, clause: RestartReference.clause, verdict: .error, detail: why))
            return checks
        }
        let damaged = Set(world.damages.map { [$0.member, $0.damage.group.hex] })
        var differences = RestartReference.differences(
            restarted: restarted.snapshots, reference: uninterrupted.snapshots, damaged: damaged)
        // Boundary 8: the user of the damaged member is told, with a typed error, which group was lost.
        for (member, damage) in world.damages {
            let errors = await world.member(member)?.core.state().errors ?? []
            let chatIDs = await world.member(member)?.core.state().chatList.filter { $0.unrecoverable != nil }.map(\.chatID) ?? []
            if !errors.contains(where: { $0.code == .groupUnrecoverable && chatIDs.contains($0.chatID ?? "") }) {
                differences.append(
                    "\(member) \(damage.group.hex.prefix(8)): the user was not told (no \(CoreError.Code.groupUnrecoverable) error)")
            }
        }
        let compared = restarted.snapshots.values.reduce(0) { $0 + $1.count }
        // Said in the verdict, so that a branch-switch cell shows its switch happened (boundary 7).
        let superseded = restarted.snapshots.values.flatMap(\.values).reduce(0) { count, held in
            count + (held.snapshot.dispositions.value ?? []).filter { $0.disposition == RestartReference.supersededDisposition }.count
        }
        checks.append(
            CheckResult(
                check: RestartReference.equalCheck, clause: RestartReference.clause, verdict: differences.isEmpty ? .pass : .fail,
                expected: "equal snapshots",
                observed: differences.isEmpty
                    ? "\(compared - damaged.count) snapshot(s) equal"
                        + (damaged.isEmpty ? "" : ", \(damaged.count) damaged group(s) Unrecoverable with input deferred")
                        + (superseded == 0 ? "" : " (\(superseded) input(s) superseded)")
                    : "\(differences.count) difference(s)",
                detail: differences.prefix(12).joined(separator: "\n")))
        return checks
    }
}

extension ScenarioExecutor {
    /// Runs the uninterrupted reference and returns its members' snapshots (nil: it did not execute).
    func referenceRun(_ scenario: Scenario, seed: UInt64, selection: EngineSelection, reproduce: String, profile: MarmotProfile) async
        -> (snapshots: [String: [String: RestartReference.Held]], failures: [String])?
    {
        var reference = self
        reference.collectsSnapshots = true
        reference.traceSink = nil
        return await reference.execute(scenario, seed: seed, selection: selection, reproduce: reproduce, profile: profile).snapshots
    }
}
