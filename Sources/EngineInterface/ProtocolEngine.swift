import Nostr

/// The Marmot-level operations of one engine instance (one simulated member), modelled on MDK's API
/// because MDK is the reference engine. Implementations: the external-process client (any driver
/// speaking docs/driver-protocol.md) and, later, the native Swift engine.
///
/// Every operation either returns a typed value or throws a typed ``EngineError``; ingest rejections are
/// ``ProcessingResult`` values. Commit-producing calls never merge: the caller publishes the event and
/// then calls ``mergePendingCommit(in:)`` (or ``clearPendingCommit(in:)`` if the relays refused it).
public protocol ProtocolEngine: Sendable {
    /// Name, version and capability set of the engine.
    func capabilities() async throws(EngineError) -> EngineCapabilities

    /// MIP-00: a key package for `publicKey`, to be published as kind 30443 (and optionally 443).
    func createKeyPackage(for publicKey: PublicKey, relays: [String], protected: Bool) async throws(EngineError)
        -> KeyPackageDraft
    /// Validates a key-package event as a group creator would before inviting its author.
    func validateKeyPackage(_ event: Event) async throws(EngineError)

    /// MIP-01: creates a group with the invitees' key packages; returns it with their welcome rumors.
    func createGroup(_ request: GroupCreation) async throws(EngineError) -> CreatedGroup
    func addMembers(to group: MLSGroupID, keyPackages: [Event]) async throws(EngineError) -> GroupEvolution
    func removeMembers(from group: MLSGroupID, pubkeys: [PublicKey]) async throws(EngineError) -> GroupEvolution
    /// A non-admin's request to leave (a proposal, committed by whoever receives it).
    func leaveGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution
    func selfDemote(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution
    func selfUpdate(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution
    func updateGroupData(of group: MLSGroupID, _ changes: GroupDataChanges) async throws(EngineError) -> GroupEvolution
    /// Ends the group for everyone (current profile, group-lifecycle-v1.md): one commit by an admin
    /// that removes every other member, leaves the committer the only admin and moves the lifecycle
    /// (0x800c) to disbanded; staged like any commit until `mergePendingCommit`. Engines that declare
    /// ``EngineCapability/disbandGroup`` answer it; the default throws `.unknownMethod`.
    func disbandGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution
    func mergePendingCommit(in group: MLSGroupID) async throws(EngineError)
    func clearPendingCommit(in group: MLSGroupID) async throws(EngineError)

    /// An application message: the engine builds the inner rumor (`sender`, `createdAt` or else
    /// now, `kind`, `tags`, `content`) and returns the kind-445 event carrying it. The app core
    /// passes `createdAt` for its own chat messages so that a burst within one second keeps the
    /// order it was written in (strictly increasing, never earlier than now).
    func createMessage(in group: MLSGroupID, sender: PublicKey, kind: Kind, content: String, tags: [[String]], createdAt: UInt64?)
        async throws(EngineError) -> Event
    /// MIP-03: ingests a kind-445 event.
    func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult

    /// MIP-02: stores a welcome rumor unwrapped from the gift wrap `wrapperID` as pending.
    func processWelcome(wrapperID: EventID, rumor: UnsignedEvent) async throws(EngineError) -> PendingWelcome
    func acceptWelcome(_ welcomeID: EventID) async throws(EngineError) -> GroupSnapshot
    func declineWelcome(_ welcomeID: EventID) async throws(EngineError)
    func pendingWelcomes() async throws(EngineError) -> [PendingWelcome]

    func groups() async throws(EngineError) -> [GroupSnapshot]
    func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot
    /// Sorted ascending.
    func members(of group: MLSGroupID) async throws(EngineError) -> [PublicKey]
    /// Sorted ascending.
    func admins(of group: MLSGroupID) async throws(EngineError) -> [PublicKey]
    func relays(of group: MLSGroupID) async throws(EngineError) -> [String]
    func epoch(of group: MLSGroupID) async throws(EngineError) -> UInt64
    func messages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage]
    /// MIP-01 group image: checks that `data` is an image of `mimeType` and encrypts it for upload.
    /// Commit the returned ``GroupImage`` with ``updateGroupData(of:_:)``. Engines that declare
    /// ``EngineCapability/groupImage`` answer it and ``decryptGroupImage(_:with:)``.
    func prepareGroupImage(_ data: [UInt8], mimeType: String) async throws(EngineError) -> PreparedGroupImage
    /// MIP-01 group image: the picture in a downloaded blob, after checking the blob against
    /// `image.hash` (`.imageHashMismatch`) and its authentication tag (`.imageUndecryptable`).
    func decryptGroupImage(_ encrypted: [UInt8], with image: GroupImage) async throws(EngineError) -> [UInt8]
    /// Conformance only: digests of the member's exact MLS state of `group` (``ExactGroupState``).
    /// Engines that declare ``EngineCapability/exactState`` answer it; others throw `.unknownMethod`.
    func exactState(of group: MLSGroupID) async throws(EngineError) -> ExactGroupState
    /// Conformance only: the canonical protocol snapshot of `group` (``ProtocolSnapshot``,
    /// foundation/conformance.md). Engines that declare ``EngineCapability/protocolSnapshot``
    /// answer it; the default throws `.unknownMethod`.
    func protocolSnapshot(of group: MLSGroupID) async throws(EngineError) -> ProtocolSnapshot
    /// Messages delivered on a branch MIP-03 then did not select (a competing commit replaced the
    /// one whose epoch they were read or written in), no longer in ``messages(in:)`` and not yet
    /// delivered again. The default: none (an engine that never invalidates a payload).
    func invalidatedMessages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage]
    /// One of our own ``invalidatedMessages(in:)``, sent again unchanged (the same rumor, so the
    /// same identity) in the group's current epoch: the event to publish.
    func resendInvalidatedMessage(_ rumorID: EventID, in group: MLSGroupID) async throws(EngineError) -> Event
}

extension ProtocolEngine {
    /// Engines without a group lifecycle (MDK 0.8.0, the legacy profile) do not declare it and
    /// are never asked.
    public func disbandGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        throw EngineError(.unknownMethod, "this engine cannot disband a group")
    }

    /// Engines written before the snapshot existed do not declare it and are never asked.
    public func protocolSnapshot(of group: MLSGroupID) async throws(EngineError) -> ProtocolSnapshot {
        throw EngineError(.unknownMethod, "this engine gives no protocol snapshot")
    }

    /// Engines that keep no invalidated payloads (MDK 0.8.0's driver reports none).
    public func invalidatedMessages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage] { [] }

    public func resendInvalidatedMessage(_ rumorID: EventID, in group: MLSGroupID) async throws(EngineError) -> Event {
        throw EngineError(.unknownMethod, "this engine keeps no invalidated messages")
    }
}

extension ProtocolEngine {
    /// An application message stamped now (the engine's clock).
    package func createMessage(in group: MLSGroupID, sender: PublicKey, kind: Kind, content: String, tags: [[String]])
        async throws(EngineError) -> Event
    {
        try await createMessage(in: group, sender: sender, kind: kind, content: content, tags: tags, createdAt: nil)
    }
}
