// The one read surface oracles see members through: what a member's app core shows and what its
// engine holds, by label. Oracles never hold an engine: every engine answer that feeds a verdict
// comes through here, so there is one place where a failed read is caught and kept.
//
// A read that fails is never taken for an empty answer: it returns nil, the failure is kept with
// its reason, and the check it fed becomes an `error` (`judged`, `errorCheck`).
import EngineInterface
import GroupCore
import Nostr
import Simulation

struct MemberReads {
    let world: World
    private(set) var failures: [String] = []

    init(_ world: World) { self.world = world }

    // MARK: Reads (nil: no such member, or the read failed and is kept)

    /// What the member's app core shows now (never fails: the core is ours and in process).
    func state(of label: String) async -> AppState? {
        await world.member(label)?.core.state()
    }

    mutating func capabilities(of label: String) async -> EngineCapabilities? {
        await read(label, "capabilities") { engine async throws(EngineError) in try await engine.capabilities() }
    }

    /// The groups the member's engine holds.
    mutating func groups(of label: String) async -> [GroupSnapshot]? {
        await read(label, "groups") { engine async throws(EngineError) in try await engine.groups() }
    }

    /// The group with Marmot group id `chatID`, nil when the member's engine holds none (or the read failed).
    mutating func group(of label: String, chatID: String) async -> GroupSnapshot? {
        let groups = await groups(of: label)
        if let group = groups?.first(where: { $0.nostrGroupID == chatID }) { return group }
        // After a routing rotation the engine names the group by its new address while the chat
        // keeps the one it first had: the chat that has had `chatID` leads to the group.
        guard let chat = await state(of: label)?.chatList.first(where: { $0.addresses.contains(chatID) }) else { return nil }
        return groups?.first { chat.addresses.contains($0.nostrGroupID) }
    }

    /// The messages the member's engine stored for `group` (`named` names the group in a failure).
    mutating func messages(of label: String, in group: GroupSnapshot, named: String? = nil) async -> [ReceivedMessage]? {
        await read(label, "messages of \(named ?? group.name)") { engine async throws(EngineError) in
            try await engine.messages(in: group.mlsGroupID)
        }
    }

    /// The messages the member's engine invalidated in the group (a branch switch, boundary 7).
    mutating func invalidatedMessages(of label: String, in group: GroupSnapshot) async -> [ReceivedMessage]? {
        await read(label, "invalidated messages of \(group.name)") { engine async throws(EngineError) in
            try await engine.invalidatedMessages(in: group.mlsGroupID)
        }
    }

    /// The group's roster as the member's engine has it.
    mutating func members(of label: String, in group: GroupSnapshot) async -> [PublicKey]? {
        await read(label, "members of \(group.name)") { engine async throws(EngineError) in try await engine.members(of: group.mlsGroupID) }
    }

    /// The exact MLS state of the group (only for engines declaring `group.exact_state`).
    mutating func exactState(of label: String, in group: GroupSnapshot) async -> ExactGroupState? {
        await read(label, "exact state of \(group.name)") { engine async throws(EngineError) in
            try await engine.exactState(of: group.mlsGroupID)
        }
    }

    /// The canonical protocol snapshot of the group (only for engines declaring `group.protocol_snapshot`).
    mutating func protocolSnapshot(of label: String, in group: GroupSnapshot) async -> ProtocolSnapshot? {
        await read(label, "protocol snapshot of \(group.name)") { engine async throws(EngineError) in
            try await engine.protocolSnapshot(of: group.mlsGroupID)
        }
    }

    // MARK: Failures

    var failed: Bool { !failures.isEmpty }

    /// `check` when every read succeeded; else the same check as an `error` naming the failed reads
    /// (what it would have said is kept in `observed` for the curious, but it decides nothing).
    func judged(_ check: CheckResult) -> CheckResult {
        guard failed else { return check }
        return CheckResult(
            check: check.check, clause: check.clause, verdict: .error, expected: check.expected, observed: check.observed,
            detail: "could not read engine state: " + failures.joined(separator: "; "))
    }

    /// An `error` check for reads that fed no check of their own (e.g. the recorded outcome).
    func errorCheck(_ name: String, clause: Clause) -> CheckResult? {
        guard failed else { return nil }
        return CheckResult(
            check: name, clause: clause, verdict: .error, detail: "could not read engine state: " + failures.joined(separator: "; "))
    }

    /// The one place an engine is asked: `body`'s answer, or nil when there is no such member or it
    /// threw (then the failure is kept as "label: what: error").
    private mutating func read<T>(_ label: String, _ what: String, _ body: (any ProtocolEngine) async throws(EngineError) -> T) async -> T?
    {
        guard let engine = world.member(label)?.engine else { return nil }
        do { return try await body(engine) } catch {
            failures.append("\(label): \(what): \(error)")
            return nil
        }
    }
}
