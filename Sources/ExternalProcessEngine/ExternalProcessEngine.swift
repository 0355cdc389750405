import Base64Encoding
import DriverProtocol
import EngineInterface
import Nostr

/// One engine instance hosted by a driver process: a ``ProtocolEngine`` whose every call is one
/// driver-protocol request.
package struct ExternalProcessEngine: ProtocolEngine {
    package let driver: DriverProcess
    /// The instance name inside the driver.
    package let instance: String
    /// The member's clock and seeded stream, when the driver runs the engine on the world's.
    let world: WorldFeed?

    /// `at`: the instant the engine's clock reads for this request, when the caller chose one
    /// later than now (a message's `created_at`); else the world's now.
    private func call(_ method: DriverMethod, _ params: [String: JSONValue] = [:], at instant: UInt64? = nil) async throws(EngineError)
        -> DriverReply
    {
        var params = params
        params["instance"] = .string(instance)
        return DriverReply(method, try await driver.call(method, params, world: world?.stamp(for: method, at: instant)))
    }

    private func groupParams(_ group: MLSGroupID) -> [String: JSONValue] { ["mls_group_id": .string(group.hex)] }

    package func capabilities() async throws(EngineError) -> EngineCapabilities {
        try await driver.capabilities()
    }

    package func createKeyPackage(for publicKey: PublicKey, relays: [String], protected: Bool) async throws(EngineError)
        -> KeyPackageDraft
    {
        let reply = try await call(
            .createKeyPackage,
            [
                "public_key": .string(publicKey.hex), "relays": .strings(relays), "protected": .bool(protected),
            ])
        return try reply.keyPackageDraft()
    }

    package func validateKeyPackage(_ event: Event) async throws(EngineError) {
        _ = try await call(.parseKeyPackage, ["event": event.jsonValue])
    }

    package func createGroup(_ request: GroupCreation) async throws(EngineError) -> CreatedGroup {
        let reply = try await call(
            .createGroup,
            [
                "creator": .string(request.creator.hex),
                "key_package_events": .array(request.keyPackages.map(\.jsonValue)),
                "name": .string(request.name),
                "description": .string(request.description),
                "relays": .strings(request.relays),
                "admins": .strings(request.admins.map(\.hex)),
            ])
        return CreatedGroup(group: try reply.object("group").groupSnapshot(), welcomeRumors: try reply.rumors("welcome_rumors"))
    }

    package func addMembers(to group: MLSGroupID, keyPackages: [Event]) async throws(EngineError) -> GroupEvolution {
        var params = groupParams(group)
        params["key_package_events"] = .array(keyPackages.map(\.jsonValue))
        return try await call(.addMembers, params).evolution()
    }

    package func removeMembers(from group: MLSGroupID, pubkeys: [PublicKey]) async throws(EngineError) -> GroupEvolution {
        var params = groupParams(group)
        params["pubkeys"] = .strings(pubkeys.map(\.hex))
        return try await call(.removeMembers, params).evolution()
    }

    package func leaveGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try await call(.leaveGroup, groupParams(group)).evolution()
    }

    package func selfDemote(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try await call(.selfDemote, groupParams(group)).evolution()
    }

    /// Asked only of drivers that declare `group.disband` (MDK 0.8.0's does not).
    package func disbandGroup(_ group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try await call(.disbandGroup, groupParams(group)).evolution()
    }

    package func selfUpdate(in group: MLSGroupID) async throws(EngineError) -> GroupEvolution {
        try await call(.selfUpdate, groupParams(group)).evolution()
    }

    package func updateGroupData(of group: MLSGroupID, _ changes: GroupDataChanges) async throws(EngineError)
        -> GroupEvolution
    {
        // The driver protocol has no field for a routing rotation (a current-profile change): refused
        // here rather than dropped, so that the caller never takes a no-op for a rotation.
        guard changes.nostrGroupID == nil else {
            throw EngineError(.invalidInput, "the driver protocol carries no nostr_group_id rotation (current profile, 0x8004)")
        }
        var fields: [String: JSONValue] = [:]
        if let name = changes.name { fields["name"] = .string(name) }
        if let description = changes.description { fields["description"] = .string(description) }
        if let relays = changes.relays { fields["relays"] = .strings(relays) }
        if let admins = changes.admins { fields["admins"] = .strings(admins.map(\.hex)) }
        if let image = changes.image { fields["image"] = image.jsonValue }
        var params = groupParams(group)
        params["changes"] = .object(fields)
        return try await call(.updateGroupData, params).evolution()
    }

    package func mergePendingCommit(in group: MLSGroupID) async throws(EngineError) {
        _ = try await call(.mergePendingCommit, groupParams(group))
    }

    package func clearPendingCommit(in group: MLSGroupID) async throws(EngineError) {
        _ = try await call(.clearPendingCommit, groupParams(group))
    }

    package func createMessage(
        in group: MLSGroupID, sender: PublicKey, kind: Kind, content: String, tags: [[String]], createdAt: UInt64?
    ) async throws(EngineError) -> Event {
        var params = groupParams(group)
        params["sender_pubkey"] = .string(sender.hex)
        params["kind"] = JSONValue(kind.rawValue)
        params["content"] = .string(content)
        params["tags"] = .array(tags.map { .strings($0) })
        // A driver that builds the rumor reads `created_at`; one whose engine stamps the rumor from
        // its clock (MDK through the world shim) gets that instant as the request's world time.
        if let createdAt { params["created_at"] = JSONValue(createdAt) }
        return try await call(.createMessage, params, at: createdAt).event("event")
    }

    package func processMessage(_ event: Event) async throws(EngineError) -> ProcessingResult {
        try await call(.processMessage, ["event": event.jsonValue]).processingResult()
    }

    package func processWelcome(wrapperID: EventID, rumor: UnsignedEvent) async throws(EngineError) -> PendingWelcome {
        let rumorValue: JSONValue
        do { rumorValue = try JSONValue(parsing: rumor.rumorJSON()) } catch {
            throw EngineError(.internal, "our own rumor JSON does not parse: \(error)")
        }
        let reply = try await call(.processWelcome, ["wrapper_event_id": .string(wrapperID.hex), "rumor": rumorValue])
        return try reply.object("welcome").pendingWelcome()
    }

    package func acceptWelcome(_ welcomeID: EventID) async throws(EngineError) -> GroupSnapshot {
        try await call(.acceptWelcome, ["welcome_id": .string(welcomeID.hex)]).object("group").groupSnapshot()
    }

    package func declineWelcome(_ welcomeID: EventID) async throws(EngineError) {
        _ = try await call(.declineWelcome, ["welcome_id": .string(welcomeID.hex)])
    }

    package func pendingWelcomes() async throws(EngineError) -> [PendingWelcome] {
        var result: [PendingWelcome] = []
        for welcome in try await call(.pendingWelcomes).objects("welcomes") { result.append(try welcome.pendingWelcome()) }
        return result
    }

    package func groups() async throws(EngineError) -> [GroupSnapshot] {
        var result: [GroupSnapshot] = []
        for group in try await call(.groups).objects("groups") { result.append(try group.groupSnapshot()) }
        return result
    }

    package func group(_ group: MLSGroupID) async throws(EngineError) -> GroupSnapshot {
        try await call(.group, groupParams(group)).object("group").groupSnapshot()
    }

    package func members(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] {
        try await call(.members, groupParams(group)).pubkeys("pubkeys").sorted()
    }

    package func admins(of group: MLSGroupID) async throws(EngineError) -> [PublicKey] {
        try await call(.admins, groupParams(group)).pubkeys("pubkeys").sorted()
    }

    package func relays(of group: MLSGroupID) async throws(EngineError) -> [String] {
        try await call(.relays, groupParams(group)).strings("relays")
    }

    package func epoch(of group: MLSGroupID) async throws(EngineError) -> UInt64 {
        try await call(.epoch, groupParams(group)).uint64("epoch")
    }

    package func messages(in group: MLSGroupID) async throws(EngineError) -> [ReceivedMessage] {
        var result: [ReceivedMessage] = []
        for message in try await call(.messages, groupParams(group)).objects("messages") {
            result.append(try message.receivedMessage())
        }
        return result
    }

    /// `protocol_snapshot`: the canonical snapshot, each field as the driver's engine gives it or
    /// `unsupported` with its reason (MDK 0.8.0: docs/oracles.md, "The protocol snapshot").
    package func protocolSnapshot(of group: MLSGroupID) async throws(EngineError) -> ProtocolSnapshot {
        try await call(.protocolSnapshot, groupParams(group)).protocolSnapshot()
    }

    /// `exact_state`: the digests the driver's engine exposes (MDK 0.8.0: the ratchet-tree digest only).
    package func exactState(of group: MLSGroupID) async throws(EngineError) -> ExactGroupState {
        try await call(.exactState, groupParams(group)).exactState()
    }

    package func prepareGroupImage(_ data: [UInt8], mimeType: String) async throws(EngineError) -> PreparedGroupImage {
        let reply = try await call(.prepareGroupImage, ["image_data": .string(Base64.encode(data)), "mime_type": .string(mimeType)])
        return PreparedGroupImage(encrypted: try reply.base64("encrypted_data"), image: try reply.object("image").groupImage())
    }

    package func decryptGroupImage(_ encrypted: [UInt8], with image: GroupImage) async throws(EngineError) -> [UInt8] {
        let reply = try await call(.decryptGroupImage, ["encrypted_data": .string(Base64.encode(encrypted)), "image": image.jsonValue])
        return try reply.base64("image_data")
    }
}

extension JSONValue {
    static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}
