// Test-only engine wrappers: a wrapper states the calls it changes; every other call goes to `base`.
import EngineInterface
import Nostr

package protocol ForwardingEngine: ProtocolEngine {
    var base: any ProtocolEngine { get }
}

extension ForwardingEngine {
    package func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult { try await base.processMessage(event) }
    package func capabilities() async throws(EngineError) -> EngineCapabilities { try await base.capabilities() }
    package func createKeyPackage(for publicKey: PublicKey, relays: [String], protected: Bool) async throws(EngineError) -> KeyPackageDraft
    {
        try await base.createKeyPackage(for: publicKey, relays: relays, protected: protected)
    }
    package func validateKeyPackage(_ event: Event) async throws(EngineError) { try await base.validateKeyPackage(event) }
    package func createGroup(_ request: GroupCreation) async throws(EngineError) -> CreatedGroup { try await base.createGroup(request) }
    package func addMembers(to group: MLSGroupID, keyPackages: [Event]) async throws(EngineError) -> GroupEvolution {
        try await base.addMembers(to: group, keyPackages: keyPackages)
    }
    package func removeMembers(from group: MLSGroupID, pubkeys: [PublicKey]) async throws(EngineError) -> GroupEvolution {
        try await base.removeMembers(from: group, pubkeys: pubkeys)
    }
    package func leaveGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution { try await base.leaveGroup(group) }
    package func selfDemote(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution { try await base.selfDemote(in: group) }
    package func selfUpdate(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution { try await base.selfUpdate(in: group) }
    package func updateGroupData(of group: MLSGroupID, _ changes: GroupDataChanges) async throws(EngineError) -> GroupEvolution {
        try await base.updateGroupData(of: group, changes)
    }
    package func disbandGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution { try await base.disbandGroup(group) }
    package func mergePendingCommit(in group: MLSGroupID) async throws(EngineError) { try await base.mergePendingCommit(in: group) }
    package func clearPendingCommit(in group: MLSGroupID) async throws(EngineError) { try await base.clearPendingCommit(in: group) }
    package func createMessage(
        in group: MLSGroupID, sender: PublicKey, kind: Kind, content: String, tags: [[String]], createdAt: UInt64?
    )
        async throws(EngineError) -> Event
    {
        try await base.createMessage(in: group, sender: sender, kind: kind, content: content, tags: tags, createdAt: createdAt)
    }
    package func processWelcome(wrapperID: EventID, rumor: UnsignedEvent) async throws(EngineError) -> PendingWelcome {
        try await base.processWelcome(wrapperID: wrapperID, rumor: rumor)
    }
    package func acceptWelcome(_ welcomeID: EventID) async throws(EngineError) -> GroupSnapshot { try await base.acceptWelcome(welcomeID) }
    package func declineWelcome(_ welcomeID: EventID) async throws(EngineError) { try await base.declineWelcome(welcomeID) }
    package func pendingWelcomes() async throws(EngineError) -> [PendingWelcome] { try await base.pendingWelcomes() }
    package func groups() async throws(EngineError) -> [GroupSnapshot] { try await base.groups() }
    package func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot { try await base.group(group) }
    package func members(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { try await base.members(of: group) }
    package func admins(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { try await base.admins(of: group) }
    package func relays(of group: MLSGroupID) async throws(EngineError) -> [String] { try await base.relays(of: group) }
    package func epoch(of group: MLSGroupID) async throws(EngineError) -> UInt64 { try await base.epoch(of: group) }
    package func messages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage] { try await base.messages(in: group) }
    package func exactState(of group: MLSGroupID) async throws(EngineError) -> ExactGroupState { try await base.exactState(of: group) }
    package func protocolSnapshot(of group: MLSGroupID) async throws(EngineError) -> ProtocolSnapshot {
        try await base.protocolSnapshot(of: group)
    }
    package func invalidatedMessages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage] {
        try await base.invalidatedMessages(in: group)
    }
    package func resendInvalidatedMessage(_ rumorID: EventID, in group: MLSGroupID) async throws(EngineError) -> Event {
        try await base.resendInvalidatedMessage(rumorID, in: group)
    }
    package func prepareGroupImage(_ data: [UInt8], mimeType: String) async throws(EngineError) -> PreparedGroupImage {
        try await base.prepareGroupImage(data, mimeType: mimeType)
    }
    package func decryptGroupImage(_ encrypted: [UInt8], with image: GroupImage) async throws(EngineError) -> [UInt8] {
        try await base.decryptGroupImage(encrypted, with: image)
    }
}
