// Test-only engine wrappers: a wrapper states the calls it changes; every other call goes to `base`.
import EngineInterface
import Nostr

public protocol ForwardingEngine: ProtocolEngine {
    var base: any ProtocolEngine { get }
}

extension ForwardingEngine {
    public func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult { try await base.processMessage(event) }
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
