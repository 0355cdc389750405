// Carries out scenario steps on a World.
import DeterministicScheduler
import EngineInterface
import GroupCore
import InMemoryRelay
import Nostr
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
    var stepNumber = 0
    /// create-link step name → the link's admin and token, for join-by-link steps.
    var links: [String: (admin: PublicKey, token: String)] = [:]

    init(world: World, scenario: Scenario, seed: UInt64) {
        self.world = world
        self.scenario = scenario
        generator = SeededGenerator(seed: seed).child("scenario/parallel")
    }

    /// A step that cannot be carried out, reported as a failing check at its position.
    struct StepFailure: Error {
        let message: String
    }

    /// The capability each action verb needs.
    static let capabilities: [String: EngineCapability] = [
        "create-group": .createGroup, "create-chat": .createGroup, "add-members": .addMembers,
        "remove-members": .removeMembers, "leave": .leave, "rename": .updateGroupData, "send": .applicationMessages,
        "create-channel": .createGroup, "broadcast": .applicationMessages,
        "set-role": .applicationMessages, "delete-message": .applicationMessages, "block": .applicationMessages,
        "unblock": .applicationMessages, "publish-roles": .applicationMessages, "create-link": .applicationMessages,
        "change-link": .applicationMessages, "delete-link": .applicationMessages, "accept-join": .addMembers,
        "reject-join": .applicationMessages, "delete-group": .applicationMessages, "join-by-link": .createGroup,
        "set-preferences": .applicationMessages, "react": .applicationMessages,
    ]

    /// Member actions the core carries out alone, without asking its engine for anything.
    static let localActions: Set<String> = ["mute", "unmute", "retry-channel", "join-channel", "retry-join"]

    /// Why the scenario cannot run on these engines, found before step one.
    enum Unrunnable {
        /// An engine declares it lacks a capability a step needs: `unsupported`.
        case lacking(String)
        /// An engine could not say what it supports: `error`.
        case unanswered(String)
    }

    /// The first capability some member's engine lacks for a step it performs (checked before step one).
    func missingCapability() async -> Unrunnable? {
        var needed: [String: Set<String>] = [:]
        func collect(_ steps: [Step]) {
            for step in steps {
                collect(step.substeps)
                // A malformed step is reported when it runs; here it needs nothing.
                guard let capability = Self.capabilities[step.verb],
                      let by = try? step.argument.fields(of: step.verb, allowed: Self.allKeys)["by"]?.string("by")
                else { continue }
                needed[by, default: []].insert(capability.rawValue)
            }
        }
        collect(scenario.steps)
        for (label, capabilities) in needed.sorted(by: { $0.key < $1.key }) {
            guard let engine = world.member(label)?.engine else { continue }
            let offered: EngineCapabilities
            do { offered = try await engine.capabilities() } catch {
                return .unanswered("\(label)'s engine did not report its capabilities: \(error)")
            }
            if let missing = capabilities.sorted().first(where: { !offered.supports(EngineCapability(rawValue: $0)) }) {
                return .lacking("\(label)'s engine \(offered.name) \(offered.version) lacks capability \(missing)")
            }
        }
        return nil
    }

    static let allKeys = StepVocabulary.verbs.flatMap { verb -> [String] in
        if case .fields(let specs) = verb.shape { return specs.map(\.name) }
        return []
    }

    mutating func run(_ steps: [Step]) async -> [CheckResult] {
        var checks: [CheckResult] = []
        for step in steps {
            stepNumber += 1
            // The check identity (what the ledger names) carries no file position: see StepIdentity.
            let title = StepIdentity.title(of: step, number: stepNumber)
            streamTrace()
            traceSink?("== \(title) at \(step.location)")
            log.append("\(world.now) \(title) at \(step.location)")
            marks.append(StepMark(title: title, location: "\(step.location)", traceIndex: world.network.trace.count + world.log.count))
            do {
                checks += try await perform(step, title: title).map { StepIdentity.locate($0, at: step.location) }
            } catch let failure as StepFailure {
                checks.append(StepIdentity.locate(CheckResult(
                    check: title, clause: ScenarioExecutor.scenarioClause, verdict: .fail, detail: failure.message), at: step.location))
                log.append("  failed: \(failure.message)")
                return checks  // later steps would act on a world the scenario did not intend
            } catch let failure as EngineError {
                // Steps only read engines (to find a message, a group): a failed read is no verdict.
                checks.append(CheckResult(check: title, clause: ScenarioExecutor.scenarioClause, verdict: .error, detail: "engine read failed: \(failure)"))
                log.append("  error: \(failure)")
                return checks
            } catch {
                checks.append(StepIdentity.locate(CheckResult(
                    check: title, clause: ScenarioExecutor.scenarioClause, verdict: .fail, detail: "\(error)"), at: step.location))
                return checks
            }
        }
        return checks
    }

    func fields(_ step: Step) throws -> Fields {
        try step.argument.fields(of: step.verb, allowed: Self.allKeys)
    }

    func key(_ label: String) throws -> PublicKey {
        guard let key = world.member(label)?.publicKey else { throw StepFailure(message: "no member '\(label)'") }
        return key
    }

    func keys(_ node: YAMLNode?) throws -> [PublicKey] {
        try (node?.stringList("members") ?? []).map(key)
    }

    /// The chat a member acts on: the one named by `group`, else its only active chat.
    func chat(of label: String, named group: String?) async throws -> String {
        guard let core = world.member(label)?.core else { throw StepFailure(message: "no member '\(label)'") }
        let all = await core.state().chatList
        let chats = all.filter { !$0.isRemoved }
        if let group {
            // A named chat may be one we left: acting on it is how a scenario shows the refusal.
            guard let chat = chats.first(where: { $0.groupName == group }) ?? all.first(where: { $0.groupName == group }) else {
                throw StepFailure(message: "\(label) has no chat named '\(group)' (has: \(chats.map(\.groupName)))")
            }
            return chat.chatID
        }
        guard chats.count == 1 else {
            throw StepFailure(message: "\(label) has \(chats.count) active chats; name one with 'group:'")
        }
        return chats[0].chatID
    }

    /// The channel a member acts on: the one named `name`, else its only channel.
    func channel(of label: String, named name: String?) async throws -> ChannelState {
        guard let core = world.member(label)?.core else { throw StepFailure(message: "no member '\(label)'") }
        let channels = await core.state().channels
        if let name {
            guard let channel = channels.first(where: { $0.name == name }) else {
                throw StepFailure(message: "\(label) has no channel named '\(name)' (has: \(channels.map(\.name)))")
            }
            return channel
        }
        guard channels.count == 1 else { throw StepFailure(message: "\(label) has \(channels.count) channels; name one with 'channel:'") }
        return channels[0]
    }

    /// The action a member-action step dispatches, and who performs it.
    func action(for step: Step) async throws -> (String, AppAction)? {
        guard let (by, action) = try await honestAction(for: step) else { return nil }
        return try fields(step)["forged"]?.boolean("forged") == true ? (by, .forged(action)) : (by, action)
    }

    private func honestAction(for step: Step) async throws -> (String, AppAction)? {
        guard Self.capabilities[step.verb] != nil || Self.localActions.contains(step.verb) else { return nil }
        let f = try fields(step)
        let by = try f.required("by").string("by")
        let group = try f["group"]?.string("group")
        switch step.verb {
        case "create-group":
            let policy: PartialFailurePolicy = try f["on-partial-failure"]?.string("on-partial-failure") == "abort" ? .abort : .proceed
            return (by, .createGroup(
                peers: try keys(f["with"]), name: try f["name"]?.string("name") ?? "", description: try f["description"]?.string("description") ?? "",
                onPartialFailure: policy, admins: try keys(f["admins"])))
        case "create-chat": return (by, .createChat(peer: try key(try f.required("with").string("with"))))
        case "add-members": return (by, .addMembers(chatID: try await chat(of: by, named: group), peers: try keys(f["members"])))
        case "remove-members":
            let chatID = try await chat(of: by, named: group), members = try keys(f["members"])
            if try f["with-messages"]?.boolean("with-messages") == true {
                return (by, .removeMembersWithMessages(chatID: chatID, members: members))
            }
            return (by, .removeMembers(chatID: chatID, members: members))
        case "leave": return (by, .leave(chatID: try await chat(of: by, named: group)))
        case "rename": return (by, .rename(chatID: try await chat(of: by, named: group), name: try f.required("to").string("to")))
        case "send": return (by, .sendMessage(chatID: try await chat(of: by, named: group), text: try f.required("text").string("text")))
        case "mute": return (by, .mute(chatID: try await chat(of: by, named: group)))
        case "unmute": return (by, .unmute(chatID: try await chat(of: by, named: group)))
        case "create-channel":
            return (by, .createChannel(
                relays: try keys(f["relays"]), name: try f.required("name").string("name"),
                description: try f["description"]?.string("description") ?? "", welcomeMessage: try f["welcome"]?.string("welcome") ?? "",
                coOwners: try keys(f["owners"])))
        case "retry-channel":
            return (by, .retryChannel(channelID: try await channel(of: by, named: try f["channel"]?.string("channel")).channelID))
        case "retry-join":
            return (by, .retryJoinChannel(channelID: try await channel(of: by, named: try f["channel"]?.string("channel")).channelID))
        case "broadcast":
            let channel = try await channel(of: by, named: try f["channel"]?.string("channel"))
            return (by, .broadcast(channelID: channel.channelID, text: try f.required("text").string("text")))
        case "join-channel":
            let owner = try f.required("from").string("from")
            let channel = try await channel(of: owner, named: try f["channel"]?.string("channel"))
            guard let link = channel.link else {
                throw StepFailure(message: "\(owner)'s channel '\(channel.name)' has no link yet (no relay active)")
            }
            return (by, .joinChannel(link))
        case "set-role":
            guard let role = Role(rawValue: try f.required("role").string("role")) else { throw StepFailure(message: "unknown role") }
            let member = try key(try f.required("member").string("member"))
            return (by, .setRole(chatID: try await chat(of: by, named: group), member: member, role: role))
        case "block", "unblock":
            let chatID = try await chat(of: by, named: group), member = try key(try f.required("member").string("member"))
            return (by, step.verb == "block" ? .block(chatID: chatID, member: member) : .unblock(chatID: chatID, member: member))
        case "create-link":
            let role = try f["role"].map { try roleValue($0) } ?? .member
            return (by, .createGroupLink(chatID: try await chat(of: by, named: group), role: role, approval: try f["approval"]?.boolean("approval") ?? false))
        case "change-link":
            return (by, .changeGroupLink(chatID: try await chat(of: by, named: group), role: try roleValue(try f.required("role"))))
        case "delete-link": return (by, .deleteGroupLink(chatID: try await chat(of: by, named: group)))
        case "join-by-link":
            let name = try f.required("link").string("link")
            guard let link = links[name] else { throw StepFailure(message: "step '\(name)' made no link") }
            return (by, .joinByLink(admin: link.admin, token: link.token))
        case "accept-join":
            let role = try f["role"].map { try roleValue($0) } ?? .member
            return (by, .admitJoin(chatID: try await chat(of: by, named: group), requester: try key(try f.required("member").string("member")), role: role))
        case "reject-join":
            return (by, .rejectJoin(chatID: try await chat(of: by, named: group), requester: try key(try f.required("member").string("member"))))
        case "delete-group":
            return (by, .deleteGroup(chatID: try await chat(of: by, named: group), keepHistory: try f["keep-history"]?.boolean("keep-history") ?? true))
        case "set-preferences":
            var preferences = GroupPreferences()
            if let value = try f["reactions"]?.boolean("reactions") { preferences.reactions = value }
            if let value = try f["full-deletion"]?.boolean("full-deletion") { preferences.fullDeletion = value }
            if let value = try f["disappear-after"]?.duration("disappear-after") { preferences.disappearAfterSeconds = UInt64(value.milliseconds / 1_000) }
            if let value = try f["history-for-new-members"]?.boolean("history-for-new-members") { preferences.historyForNewMembers = value }
            if let value = try f["welcome"]?.string("welcome") { preferences.welcomeMessage = value }
            return (by, .setPreferences(chatID: try await chat(of: by, named: group), preferences: preferences))
        case "react":
            let chatID = try await chat(of: by, named: group)
            let messageID = try await messageID(of: by, chatID: chatID, text: try f.required("message").string("message"))
            return (by, .react(chatID: chatID, messageID: messageID, emoji: try f["emoji"]?.string("emoji") ?? "+"))
        case "publish-roles": return (by, .publishRoleTable(chatID: try await chat(of: by, named: group)))
        case "delete-message":
            let chatID = try await chat(of: by, named: group)
            return (by, .deleteMessage(chatID: chatID, messageID: try await messageID(of: by, chatID: chatID, text: try f.required("message").string("message"))))
        default: return nil
        }
    }

    func roleValue(_ node: YAMLNode) throws -> Role {
        guard let role = Role(rawValue: try node.string("role")) else { throw StepFailure(message: "unknown role") }
        return role
    }

    /// The rumor id of the chat message with `text` as `label`'s engine stored it.
    func messageID(of label: String, chatID: String, text: String) async throws -> String {
        guard let engine = world.member(label)?.engine,
              let group = try await engine.groups().first(where: { $0.nostrGroupID == chatID })
        else { throw StepFailure(message: "\(label) has no group \(chatID.prefix(8))") }
        let matches = try await engine.messages(in: group.mlsGroupID).filter { $0.rumor.kind == .chatMessage && $0.rumor.content == text }
        guard matches.count == 1 else { throw StepFailure(message: "\(label) has \(matches.count) messages '\(text)', needs exactly one") }
        return matches[0].rumor.id.hex
    }

    mutating func perform(_ step: Step, title: String) async throws -> [CheckResult] {
        if let (by, action) = try await action(for: step) {
            await dispatch(by, action)
            if step.verb == "create-link", let name = step.name, let member = world.member(by),
               let link = await member.core.state().chatList.compactMap(\.link).first(where: { $0.admin == member.publicKey }) {
                links[name] = (link.admin, link.token)
            }
            return []
        }
        switch step.verb {
        case "deliver":
            _ = await world.runUntilQuiescent()
        case "advance":
            await world.run(for: try fields(step).required("by").duration("by").virtual)
        case "parallel":
            // Logically concurrent: every action is dispatched at the same instant, in an order the
            // seed chooses, before any of their traffic is delivered.
            var actions: [(String, AppAction)] = []
            for substep in step.substeps {
                guard let pair = try await action(for: substep) else {
                    throw StepFailure(message: "parallel blocks hold member actions only, found '\(substep.verb)'")
                }
                actions.append(pair)
            }
            actions.shuffle(using: &generator)
            log.append("  order: \(actions.map(\.0).joined(separator: ", "))")
            orders.append(actions.map(\.0).joined(separator: ","))
            var entrants: [RenameRace.Entrant] = []
            for (by, action) in actions {
                let published = await dispatch(by, action)
                // A rename commits at once: the first group event its member publishes is the commit.
                if case .rename(_, let name) = action, let commit = published {
                    entrants.append(RenameRace.Entrant(member: by, name: name, commit: commit))
                }
            }
            if let name = step.name, !entrants.isEmpty { races[name] = RenameRace(entrants: entrants) }
        case "fault":
            let (networkStart, logStart) = (world.network.trace.count, world.log.count)
            try applyFault(step)
            noteFault(step, title: title, networkStart: networkStart, logStart: logStart)
        case "inject":
            let (networkStart, logStart) = (world.network.trace.count, world.log.count)
            try inject(step)
            noteFault(step, title: title, networkStart: networkStart, logStart: logStart)
        case "release":
            let name = try fields(step).required("hold").string("hold")
            if let rule = holds.removeValue(forKey: name) { world.network.removeFault(rule) }
            world.network.release(hold: name)
        case "check":
            var results: [CheckResult] = []
            if let race = try fields(step)["race-winner"] {
                let name = try race.string("race-winner")
                guard let renames = races[name] else {
                    throw StepFailure(message: "race-winner: '\(name)' is not a parallel step of renames that ran before this check")
                }
                results.append(await renames.check("\(title): race winner of '\(name)'", in: world))
            }
            let (outcome, reads) = await Observation.outcome(of: world)
            if let failed = reads.errorCheck("\(title): read members' state", clause: ScenarioExecutor.scenarioClause) { results.append(failed) }
            return results + (await ExpectationChecks.check(
                step.argument, outcome: outcome, world: world, file: scenario.file, context: title, ignoring: ["race-winner"]))
        case "wait":
            return [try await wait(step, title: title)]
        default:
            throw StepFailure(message: "the runner does not carry out '\(step.verb)' steps")
        }
        return []
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
        }
        let before = world.published.count
        await world.dispatch(by, action)
        let event = world.published[before...].first { $0.member == by && $0.event.kind == .groupEvent }?.event
        if case .sendMessage(let chatID, let text) = action {
            sent.append(SentMessage(sender: by, chatID: chatID, text: text, recipients: recipients, event: event))
        }
        return event
    }

    mutating func wait(_ step: Step, title: String) async throws -> CheckResult {
        let f = try fields(step)
        let until = try f.required("until").string("until")
        let within = try f.required("within").duration("within")
        let deadline = world.now.advanced(by: within.virtual)
        let never = try (f["never"]?.stringList("never") ?? []).compactMap(NeverCondition.init(rawValue:))
        var watch = await NeverWatch(never, world: world)
        var quiescent = false
        while world.now <= deadline {
            guard await world.step() else { quiescent = true; break }
            if let broken = await watch.violation(in: world) {
                return CheckResult(
                    check: "\(title): never \(never.map(\.rawValue).joined(separator: ", "))", clause: ScenarioExecutor.scenarioClause,
                    verdict: .fail, expected: "none of these while waiting", observed: broken)
            }
        }
        switch until {
        case "quiescent":
            return CheckResult(
                check: "\(title): quiescent within \(within)", clause: ScenarioExecutor.scenarioClause,
                verdict: quiescent ? .pass : .fail, detail: quiescent ? "" : "traffic or timers still pending at \(world.now)")
        default:
            return await Convergence.check("\(title): converged within \(within)", in: world)
        }
    }

    mutating func applyFault(_ step: Step) throws {
        let f = try fields(step)
        guard let kind = FaultKind(rawValue: try f.required("apply").string("apply")) else {
            throw StepFailure(message: "unknown fault")
        }
        let relay = try f["relay"]?.string("relay")
        let member = try f["member"]?.string("member")
        func need(_ value: String?, _ what: String) throws -> String {
            guard let value else { throw StepFailure(message: "fault '\(kind.rawValue)' needs '\(what)'") }
            return value
        }
        switch kind {
        case .down, .up:
            world.network.setRelay(try need(relay, "relay"), up: kind == .up)
            return
        case .partition:
            world.network.partition(try need(member, "member"))
            return
        case .tamper:
            guard let k = try f["kind"]?.integer("kind", in: 0...65535) else { throw StepFailure(message: "fault 'tamper' needs 'kind'") }
            let author = try key(try need(try f["author"]?.string("author"), "author"))
            world.tamper(deliveriesTo: try need(member, "member"), kind: Kind(rawValue: UInt16(k)), author: author)
            return
        case .heal:
            world.network.heal(try need(member, "member"))
            return
        default:
            break
        }
        var selector = FrameSelector()
        if let k = try f["kind"]?.integer("kind", in: 0...65535) { selector.kinds = [Kind(rawValue: UInt16(k))] }
        if let author = try f["author"]?.string("author") { selector.authorLabel = author }
        let scope: FaultRule.Scope =
            switch (relay, member) {
            case (let r?, let m?): .link(member: m, relay: r)
            case (let r?, nil): .relay(r)
            case (nil, let m?): .member(m)
            case (nil, nil): .everywhere
            }
        let action: FaultRule.Action
        switch kind {
        case .drop: action = .drop
        case .delay:
            let amount = try f["for"]?.duration("for") ?? ScenarioDuration(milliseconds: 1_000)
            action = .delay(amount.virtual)
        case .duplicate: action = .duplicate
        case .reorder: action = .reorder
        case .reject:
            let prefix = try f["prefix"]?.string("prefix") ?? "blocked"
            action = .reject(prefix: MachineReadablePrefix(prefix), message: "rejected by scenario")
        case .withholdOK: action = .withholdOK
        case .hold:
            guard let name = step.name else { throw StepFailure(message: "a hold fault needs a step name for release to refer to") }
            action = .hold(name)
        case .down, .up, .partition, .heal, .tamper: return
        }
        // EVENT-carrying rules watch what members publish unless told otherwise; OK withholding
        // watches the relay's answer.
        let direction: FaultRule.Direction =
            kind == .withholdOK ? .both : (try f["direction"]?.string("direction") == "to-member" ? .toMember : .toRelay)
        let occurrences: FaultRule.Occurrences = try f["nth"].map { .nth(Int(try $0.integer("nth", in: 1...1_000_000))) } ?? .all
        if kind != .withholdOK, selector.verbs == nil { selector.verbs = ["EVENT"] }
        let rule = world.network.addFault(FaultRule(scope: scope, direction: direction, selector: selector, action: action, occurrences: occurrences))
        if kind == .hold, let name = step.name { holds[name] = rule }
    }
}

extension ScenarioDuration {
    /// The duration on the world's clock (scenario durations are never negative: the parser has no sign).
    var virtual: VirtualDuration { .milliseconds(UInt64(clamping: milliseconds)) }
}
