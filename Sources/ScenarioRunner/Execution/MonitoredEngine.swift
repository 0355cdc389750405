// Every member's engine is wrapped so that an infrastructure failure anywhere in a run (a driver
// that died, timed out, answered malformed or was asked something it cannot parse) is seen by the
// executor, even when it happened inside GroupCore, which only records it as a core error.
import EngineInterface
import Nostr
import Synchronization

/// Infrastructure failures seen by the engines of one run, in order.
final class InfrastructureLog: Sendable {
    private let entries = Mutex<[String]>([])

    /// Codes that say the engine could not answer, as opposed to a typed refusal of the request.
    static let infrastructureCodes: Set<EngineError.Code> = [
        .driverDied, .timeout, .malformedResponse, .launchFailed, .engineUnavailable, .internal, .badRequest, .unknownMethod,
        .unknownInstance,
    ]

    static func isInfrastructure(_ error: EngineError) -> Bool { infrastructureCodes.contains(error.code) }

    func note(_ label: String, _ operation: String, _ error: EngineError) {
        guard Self.isInfrastructure(error) else { return }
        entries.withLock { $0.append("\(label): \(operation): \(error)") }
    }

    var failures: [String] { entries.withLock { $0 } }
}

/// A member's engine, reporting infrastructure failures to the run's log and otherwise unchanged.
struct MonitoredEngine: ProtocolEngine {
    let base: any ProtocolEngine
    let label: String
    let log: InfrastructureLog
    /// The member's crash switch: once it tripped the member is dead, and no call reaches its
    /// engine (a killed process answers nothing; its store keeps what the last call committed).
    var crash: CrashSwitch? = nil

    private func watch<T>(_ operation: String, _ body: () async throws(EngineError) -> T) async throws(EngineError) -> T {
        if let crash, crash.isTripped { throw CrashSwitch.deadError(operation) }
        do { return try await body() } catch {
            log.note(label, operation, error)
            throw error
        }
    }

    func capabilities() async throws(EngineError) -> EngineCapabilities {
        try await watch("capabilities") { () async throws(EngineError) in try await base.capabilities() }
    }
    func createKeyPackage(for publicKey: PublicKey, relays: [String], protected: Bool) async throws(EngineError) -> KeyPackageDraft {
        try await watch("create key package") { () async throws(EngineError) in
            try await base.createKeyPackage(for: publicKey, relays: relays, protected: protected)
        }
    }
    func validateKeyPackage(_ event: Event) async throws(EngineError) {
        try await watch("validate key package") { () async throws(EngineError) in try await base.validateKeyPackage(event) }
    }
    func createGroup(_ request: GroupCreation) async throws(EngineError) -> CreatedGroup {
        try await watch("create group") { () async throws(EngineError) in try await base.createGroup(request) }
    }
    func addMembers(to group: MLSGroupID, keyPackages: [Event]) async throws(EngineError) -> GroupEvolution {
        try await watch("add members") { () async throws(EngineError) in try await base.addMembers(to: group, keyPackages: keyPackages) }
    }
    func removeMembers(from group: MLSGroupID, pubkeys: [PublicKey]) async throws(EngineError) -> GroupEvolution {
        try await watch("remove members") { () async throws(EngineError) in try await base.removeMembers(from: group, pubkeys: pubkeys) }
    }
    func leaveGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try await watch("leave group") { () async throws(EngineError) in try await base.leaveGroup(group) }
    }
    func selfDemote(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try await watch("self demote") { () async throws(EngineError) in try await base.selfDemote(in: group) }
    }
    func selfUpdate(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try await watch("self update") { () async throws(EngineError) in try await base.selfUpdate(in: group) }
    }
    func updateGroupData(of group: MLSGroupID, _ changes: GroupDataChanges) async throws(EngineError) -> GroupEvolution {
        try await watch("update group data") { () async throws(EngineError) in try await base.updateGroupData(of: group, changes) }
    }
    func disbandGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try await watch("disband group") { () async throws(EngineError) in try await base.disbandGroup(group) }
    }
    func mergePendingCommit(in group: MLSGroupID) async throws(EngineError) {
        try await watch("merge pending commit") { () async throws(EngineError) in try await base.mergePendingCommit(in: group) }
    }
    func clearPendingCommit(in group: MLSGroupID) async throws(EngineError) {
        try await watch("clear pending commit") { () async throws(EngineError) in try await base.clearPendingCommit(in: group) }
    }
    func createMessage(in group: MLSGroupID, sender: PublicKey, kind: Kind, content: String, tags: [[String]], createdAt: UInt64?)
        async throws(EngineError) -> Event
    {
        try await watch("create message") { () async throws(EngineError) in
            try await base.createMessage(in: group, sender: sender, kind: kind, content: content, tags: tags, createdAt: createdAt)
        }
    }
    func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult {
        try await watch("process message") { () async throws(EngineError) in try await base.processMessage(event) }
    }
    func processWelcome(wrapperID: EventID, rumor: UnsignedEvent) async throws(EngineError) -> PendingWelcome {
        try await watch("process welcome") { () async throws(EngineError) in
            try await base.processWelcome(wrapperID: wrapperID, rumor: rumor)
        }
    }
    func acceptWelcome(_ welcomeID: EventID) async throws(EngineError) -> GroupSnapshot {
        try await watch("accept welcome") { () async throws(EngineError) in try await base.acceptWelcome(welcomeID) }
    }
    func declineWelcome(_ welcomeID: EventID) async throws(EngineError) {
        try await watch("decline welcome") { () async throws(EngineError) in try await base.declineWelcome(welcomeID) }
    }
    func pendingWelcomes() async throws(EngineError) -> [PendingWelcome] {
        try await watch("pending welcomes") { () async throws(EngineError) in try await base.pendingWelcomes() }
    }
    func groups() async throws(EngineError) -> [GroupSnapshot] {
        try await watch("groups") { () async throws(EngineError) in try await base.groups() }
    }
    func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot {
        try await watch("group") { () async throws(EngineError) in try await base.group(group) }
    }
    func members(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] {
        try await watch("members") { () async throws(EngineError) in try await base.members(of: group) }
    }
    func admins(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] {
        try await watch("admins") { () async throws(EngineError) in try await base.admins(of: group) }
    }
    func relays(of group: MLSGroupID) async throws(EngineError) -> [String] {
        try await watch("relays") { () async throws(EngineError) in try await base.relays(of: group) }
    }
    func epoch(of group: MLSGroupID) async throws(EngineError) -> UInt64 {
        try await watch("epoch") { () async throws(EngineError) in try await base.epoch(of: group) }
    }
    func messages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage] {
        try await watch("messages") { () async throws(EngineError) in try await base.messages(in: group) }
    }
    func exactState(of group: MLSGroupID) async throws(EngineError) -> ExactGroupState {
        try await watch("exact state") { () async throws(EngineError) in try await base.exactState(of: group) }
    }
    func protocolSnapshot(of group: MLSGroupID) async throws(EngineError) -> ProtocolSnapshot {
        try await watch("protocol snapshot") { () async throws(EngineError) in try await base.protocolSnapshot(of: group) }
    }
    func invalidatedMessages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage] {
        try await watch("invalidated messages") { () async throws(EngineError) in try await base.invalidatedMessages(in: group) }
    }
    func resendInvalidatedMessage(_ rumorID: EventID, in group: MLSGroupID) async throws(EngineError) -> Event {
        try await watch("resend invalidated message") { () async throws(EngineError) in
            try await base.resendInvalidatedMessage(rumorID, in: group)
        }
    }
    func prepareGroupImage(_ data: [UInt8], mimeType: String) async throws(EngineError) -> PreparedGroupImage {
        try await watch("prepare group image") { () async throws(EngineError) in try await base.prepareGroupImage(data, mimeType: mimeType)
        }
    }
    func decryptGroupImage(_ encrypted: [UInt8], with image: GroupImage) async throws(EngineError) -> [UInt8] {
        try await watch("decrypt group image") { () async throws(EngineError) in try await base.decryptGroupImage(encrypted, with: image) }
    }
}
