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
    /// Hold step name → its fault rule, removed when the hold is released.
    var holds: [String: Int] = [:]
    /// The order chosen for each parallel block, in step order.
    var orders: [String] = []
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
        "set-role": .applicationMessages, "delete-message": .applicationMessages, "block": .applicationMessages,
        "unblock": .applicationMessages, "publish-roles": .applicationMessages, "create-link": .applicationMessages,
        "change-link": .applicationMessages, "delete-link": .applicationMessages, "accept-join": .addMembers,
        "reject-join": .applicationMessages, "delete-group": .applicationMessages, "join-by-link": .createGroup,
        "set-preferences": .applicationMessages, "react": .applicationMessages,
    ]

    /// The first capability some member's engine lacks for a step it performs (checked before step one).
    func missingCapability() async -> String? {
        var needed: [String: Set<String>] = [:]
        func collect(_ steps: [Step]) {
            for step in steps {
                collect(step.substeps)
                guard let capability = Self.capabilities[step.verb],
                      let by = try? step.argument.fields(of: step.verb, allowed: Self.allKeys)["by"]?.string("by")
                else { continue }
                needed[by, default: []].insert(capability.rawValue)
            }
        }
        collect(scenario.steps)
        for (label, capabilities) in needed.sorted(by: { $0.key < $1.key }) {
            guard let engine = world.member(label)?.engine, let offered = try? await engine.capabilities() else { continue }
            if let missing = capabilities.sorted().first(where: { !offered.supports(EngineCapability(rawValue: $0)) }) {
                return "\(label)'s engine \(offered.name) \(offered.version) lacks capability \(missing)"
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
            let title = "step \(stepNumber) (\(step.name ?? step.verb)) at \(step.location)"
            log.append("\(world.now) \(title)")
            do {
                checks += try await perform(step, title: title)
            } catch let failure as StepFailure {
                checks.append(CheckResult(
                    check: title, clause: ScenarioExecutor.scenarioClause, verdict: .fail, detail: failure.message))
                log.append("  failed: \(failure.message)")
                return checks  // later steps would act on a world the scenario did not intend
            } catch {
                checks.append(CheckResult(check: title, clause: ScenarioExecutor.scenarioClause, verdict: .fail, detail: "\(error)"))
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

    /// The action a member-action step dispatches, and who performs it.
    func action(for step: Step) async throws -> (String, AppAction)? {
        guard let (by, action) = try await honestAction(for: step) else { return nil }
        return try fields(step)["forged"]?.boolean("forged") == true ? (by, .forged(action)) : (by, action)
    }

    private func honestAction(for step: Step) async throws -> (String, AppAction)? {
        guard Self.capabilities[step.verb] != nil else { return nil }
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
            await world.dispatch(by, action)
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
            for (by, action) in actions { await world.dispatch(by, action) }
        case "fault":
            try applyFault(step)
        case "release":
            let name = try fields(step).required("hold").string("hold")
            if let rule = holds.removeValue(forKey: name) { world.network.removeFault(rule) }
            world.network.release(hold: name)
        case "check":
            let outcome = await Observation.outcome(of: world)
            return await ExpectationChecks.check(step.argument, outcome: outcome, world: world, file: scenario.file, context: title)
        case "wait":
            return [try await wait(step, title: title)]
        default:
            throw StepFailure(message: "the runner does not carry out '\(step.verb)' steps")
        }
        return []
    }

    mutating func wait(_ step: Step, title: String) async throws -> CheckResult {
        let f = try fields(step)
        let until = try f.required("until").string("until")
        let within = try f.required("within").duration("within")
        let deadline = world.now.advanced(by: within.virtual)
        var quiescent = false
        while world.now <= deadline {
            guard await world.step() else { quiescent = true; break }
        }
        switch until {
        case "quiescent":
            return CheckResult(
                check: "\(title): quiescent within \(within)", clause: ScenarioExecutor.scenarioClause,
                verdict: quiescent ? .pass : .fail, detail: quiescent ? "" : "traffic or timers still pending at \(world.now)")
        default:
            return await Observation.convergenceCheck("\(title): converged within \(within)", in: world)
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
        // EVENT-carrying rules watch what members publish; OK withholding watches the relay's answer.
        let direction: FaultRule.Direction =
            kind == .withholdOK ? .both : try f["direction"]?.string("direction") == "to-member" ? .toMember : .toRelay
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
