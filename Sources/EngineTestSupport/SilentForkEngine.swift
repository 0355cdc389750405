// Test-only twin of the convergence oracle (never a shipped engine option): an engine that forks
// silently. Handed a peer's commit it was told to fork on, it does not apply it: it commits and
// merges a self-update of its own instead and reports the commit as processed. It ends on the same
// epoch number as its peers, with the same name, members and admins, but on another MLS state,
// which only an exact-state comparison can see.
import EngineInterface
import Nostr
import Synchronization

/// The events a `SilentForkEngine` forks on, set by the test while the world runs.
public final class ForkTrigger: Sendable {
    private let targets = Mutex<Set<EventID>>([])
    private let forked = Mutex<[EventID]>([])

    public init() {}

    /// Fork on `event` when it arrives.
    public func arm(_ event: EventID) { targets.withLock { _ = $0.insert(event) } }

    /// The events the engine forked on so far.
    public var forks: [EventID] { forked.withLock { $0 } }

    func take(_ event: EventID) -> Bool {
        let hit = targets.withLock { $0.remove(event) != nil }
        if hit { forked.withLock { $0.append(event) } }
        return hit
    }
}

public struct SilentForkEngine: ProtocolEngine {
    public let base: any ProtocolEngine
    public let trigger: ForkTrigger

    public init(base: any ProtocolEngine, trigger: ForkTrigger) {
        self.base = base
        self.trigger = trigger
    }

    public func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult {
        guard trigger.take(event.id) else { return try await base.processMessage(event) }
        let chatID = event.firstTagValue("h") ?? ""
        guard let group = try await base.groups().first(where: { $0.nostrGroupID == chatID }) else {
            throw EngineError(.unknownGroup, "fork twin: no group \(chatID.prefix(8))")
        }
        _ = try await base.selfUpdate(in: group.mlsGroupID)
        try await base.mergePendingCommit(in: group.mlsGroupID)
        return .commit(group.mlsGroupID)
    }

    public func capabilities() async throws(EngineError) -> EngineCapabilities { try await base.capabilities() }
    public func createKeyPackage(for publicKey: PublicKey, relays: [String], protected: Bool) async throws(EngineError) -> KeyPackageDraft {
        try await base.createKeyPackage(for: publicKey, relays: relays, protected: protected)
    }
    public func validateKeyPackage(_ event: Event) async throws(EngineError) { try await base.validateKeyPackage(event) }
    public func createGroup(_ request: GroupCreation) async throws(EngineError) -> CreatedGroup { try await base.createGroup(request) }
    public func addMembers(to group: MLSGroupID, keyPackages: [Event]) async throws(EngineError) -> GroupEvolution {
        try await base.addMembers(to: group, keyPackages: keyPackages)
    }
    public func removeMembers(from group: MLSGroupID, pubkeys: [PublicKey]) async throws(EngineError) -> GroupEvolution {
        try await base.removeMembers(from: group, pubkeys: pubkeys)
    }
    public func leaveGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution { try await base.leaveGroup(group) }
    public func selfDemote(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution { try await base.selfDemote(in: group) }
    public func selfUpdate(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution { try await base.selfUpdate(in: group) }
    public func updateGroupData(of group: MLSGroupID, _ changes: GroupDataChanges) async throws(EngineError) -> GroupEvolution {
        try await base.updateGroupData(of: group, changes)
    }
    public func mergePendingCommit(in group: MLSGroupID) async throws(EngineError) { try await base.mergePendingCommit(in: group) }
    public func clearPendingCommit(in group: MLSGroupID) async throws(EngineError) { try await base.clearPendingCommit(in: group) }
    public func createMessage(in group: MLSGroupID, sender: PublicKey, kind: Kind, content: String, tags: [[String]])
        async throws(EngineError) -> Event
    {
        try await base.createMessage(in: group, sender: sender, kind: kind, content: content, tags: tags)
    }
    public func processWelcome(wrapperID: EventID, rumor: UnsignedEvent) async throws(EngineError) -> PendingWelcome {
        try await base.processWelcome(wrapperID: wrapperID, rumor: rumor)
    }
    public func acceptWelcome(_ welcomeID: EventID) async throws(EngineError) -> GroupSnapshot { try await base.acceptWelcome(welcomeID) }
    public func declineWelcome(_ welcomeID: EventID) async throws(EngineError) { try await base.declineWelcome(welcomeID) }
    public func pendingWelcomes() async throws(EngineError) -> [PendingWelcome] { try await base.pendingWelcomes() }
    public func groups() async throws(EngineError) -> [GroupSnapshot] { try await base.groups() }
    public func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot { try await base.group(group) }
    public func members(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { try await base.members(of: group) }
    public func admins(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { try await base.admins(of: group) }
    public func relays(of group: MLSGroupID) async throws(EngineError) -> [String] { try await base.relays(of: group) }
    public func epoch(of group: MLSGroupID) async throws(EngineError) -> UInt64 { try await base.epoch(of: group) }
    public func messages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage] { try await base.messages(in: group) }
    public func exactState(of group: MLSGroupID) async throws(EngineError) -> ExactGroupState { try await base.exactState(of: group) }
}
