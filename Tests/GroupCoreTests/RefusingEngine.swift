import EngineInterface
import Nostr

/// An engine that can do nothing: every call fails with `engine_unavailable`. It lets the core's
/// own logic (relay orchestration, key-package classification, state and revs) be tested without
/// MLS, and makes a world fully deterministic (nothing draws outside the world's seed).
struct RefusingEngine: ProtocolEngine {
    private var refusal: EngineError { EngineError(.engineUnavailable, "this test engine does no MLS") }

    func capabilities() async throws(EngineError) -> EngineCapabilities { throw refusal }
    func createKeyPackage(for publicKey: PublicKey, relays: [String], protected: Bool) async throws(EngineError)
        -> KeyPackageDraft
    { throw refusal }
    func validateKeyPackage(_ event: Event) async throws(EngineError) { throw refusal }
    func createGroup(_ request: GroupCreation) async throws(EngineError) -> CreatedGroup { throw refusal }
    func addMembers(to group: MLSGroupID, keyPackages: [Event]) async throws(EngineError) -> GroupEvolution { throw refusal }
    func removeMembers(from group: MLSGroupID, pubkeys: [PublicKey]) async throws(EngineError) -> GroupEvolution {
        throw refusal
    }
    func leaveGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution { throw refusal }
    func selfDemote(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution { throw refusal }
    func selfUpdate(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution { throw refusal }
    func updateGroupData(of group: MLSGroupID, _ changes: GroupDataChanges) async throws(EngineError) -> GroupEvolution {
        throw refusal
    }
    func mergePendingCommit(in group: MLSGroupID) async throws(EngineError) { throw refusal }
    func clearPendingCommit(in group: MLSGroupID) async throws(EngineError) { throw refusal }
    func createMessage(in group: MLSGroupID, sender: PublicKey, kind: Kind, content: String, tags: [[String]], createdAt: UInt64?)
        async throws(EngineError) -> Event
    { throw refusal }
    func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult { throw refusal }
    func processWelcome(wrapperID: EventID, rumor: UnsignedEvent) async throws(EngineError) -> PendingWelcome {
        throw refusal
    }
    func acceptWelcome(_ welcomeID: EventID) async throws(EngineError) -> GroupSnapshot { throw refusal }
    func declineWelcome(_ welcomeID: EventID) async throws(EngineError) { throw refusal }
    func pendingWelcomes() async throws(EngineError) -> [PendingWelcome] { throw refusal }
    func groups() async throws(EngineError) -> [GroupSnapshot] { throw refusal }
    func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot { throw refusal }
    func members(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { throw refusal }
    func admins(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] { throw refusal }
    func relays(of group: MLSGroupID) async throws(EngineError) -> [String] { throw refusal }
    func epoch(of group: MLSGroupID) async throws(EngineError) -> UInt64 { throw refusal }
    func messages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage] { throw refusal }
    func exactState(of group: MLSGroupID) async throws(EngineError) -> ExactGroupState { throw refusal }
    func prepareGroupImage(_ data: [UInt8], mimeType: String) async throws(EngineError) -> PreparedGroupImage { throw refusal }
    func decryptGroupImage(_ encrypted: [UInt8], with image: GroupImage) async throws(EngineError) -> [UInt8] { throw refusal }
}
