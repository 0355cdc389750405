import Base64Encoding
import EngineInterface
import HexEncoding
import Nostr

/// The record shapes of docs/driver-protocol.md ("Value conventions"), from the engine's values.
/// Fields the interface does not carry (last message, self-update state) are null
/// or left out, as the document allows.
package enum Records {
    package static func pubkeys(_ keys: [PublicKey]) -> JSONValue { .array(keys.map { .string($0.hex) }) }

    package static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    package static func tags(_ tags: [[String]]) -> JSONValue { .array(tags.map(strings)) }

    /// Group object.
    package static func group(_ group: GroupSnapshot) -> JSONValue {
        .object([
            "mls_group_id": .string(group.mlsGroupID.hex), "nostr_group_id": .string(group.nostrGroupID),
            "name": .string(group.name), "description": .string(group.description),
            "image_hash": group.image.map { .string($0.hash.hexString) } ?? .null,
            "image_key": group.image.map { .string($0.key.hexString) } ?? .null,
            "image_nonce": group.image.map { .string($0.nonce.hexString) } ?? .null,
            "admin_pubkeys": pubkeys(group.admins), "last_message_id": .null, "last_message_at": .null,
            "epoch": JSONValue(group.epoch), "state": .string(group.state.rawValue),
        ])
    }

    /// A rumor as JSON (`id` included, no `sig`).
    package static func rumor(_ rumor: UnsignedEvent) throws(EngineError) -> JSONValue {
        do { return try JSONValue(parsing: rumor.rumorJSON()) } catch {
            throw EngineError(.internal, "the engine's rumor does not serialize: \(error)")
        }
    }

    /// Update object.
    package static func update(_ evolution: GroupEvolution) throws(EngineError) -> [String: JSONValue] {
        [
            "mls_group_id": .string(evolution.mlsGroupID.hex), "evolution_event": evolution.event.jsonValue,
            "welcome_rumors": .array(try evolution.welcomeRumors.map(rumor)),
        ]
    }

    /// Message object.
    package static func message(_ message: ReceivedMessage) throws(EngineError) -> JSONValue {
        .object([
            "id": .string(message.rumor.id.hex), "mls_group_id": .string(message.mlsGroupID.hex),
            "event_id": .string(message.wrapperID.hex), "sender_pubkey": .string(message.sender.hex),
            "rumor": try rumor(message.rumor), "created_at": JSONValue(message.rumor.createdAt),
            "kind": JSONValue(message.rumor.kind.rawValue), "state": .string("processed"),
        ])
    }

    /// A prepared image: the blob (base64) and the image object that opens it.
    package static func preparedImage(_ prepared: PreparedGroupImage) -> [String: JSONValue] {
        ["encrypted_data": .string(Base64.encode(prepared.encrypted)), "image": prepared.image.jsonValue]
    }

    /// Welcome object.
    package static func welcome(_ welcome: PendingWelcome) -> JSONValue {
        .object([
            "id": .string(welcome.id.hex), "wrapper_event_id": .string(welcome.wrapperID.hex),
            "mls_group_id": .string(welcome.mlsGroupID.hex), "group_name": .string(welcome.groupName),
            "group_description": .string(welcome.groupDescription), "group_admin_pubkeys": pubkeys(welcome.groupAdmins),
            "group_relays": strings(welcome.groupRelays), "welcomer": .string(welcome.welcomer.hex),
            "member_count": JSONValue(welcome.memberCount), "state": .string("pending"),
        ])
    }

    package static func keyPackage(_ draft: KeyPackageDraft) -> [String: JSONValue] {
        [
            "content": .string(draft.content), "d_tag": .string(draft.dTag), "key_package_ref": .string(draft.keyPackageRef),
            "tags": tags(draft.tags), "tags_legacy": tags(draft.legacyTags),
        ]
    }

    /// `process_message` result.
    package static func processing(_ result: ProcessingResult) throws(EngineError) -> [String: JSONValue] {
        switch result {
        case .applicationMessage(let message): return ["type": .string("application_message"), "message": try Records.message(message)]
        case .commit(let group): return ["type": .string("commit"), "mls_group_id": .string(group.hex)]
        case .rivalCommit(let group, let replaced, let competitor):
            return [
                "type": .string("commit"), "mls_group_id": .string(group.hex), "replaced": .string(replaced.hex),
                "competitor": .string(competitor.hex),
            ]
        case .proposal(let evolution): return ["type": .string("proposal"), "update": .object(try update(evolution))]
        case .pendingProposal(let group): return ["type": .string("pending_proposal"), "mls_group_id": .string(group.hex)]
        case .ignoredProposal(let group, let reason):
            return ["type": .string("ignored_proposal"), "mls_group_id": .string(group.hex), "reason": .string(reason)]
        case .externalJoinProposal(let group): return ["type": .string("external_join_proposal"), "mls_group_id": .string(group.hex)]
        case .unprocessable(let group, let reason):
            var fields: [String: JSONValue] = ["type": .string("unprocessable"), "reason": .string(reason)]
            if let group { fields["mls_group_id"] = .string(group.hex) }
            return fields
        case .previouslyFailed: return ["type": .string("previously_failed")]
        case .rejected(let error): return ["type": .string("error"), "code": .string(error.code.name), "reason": .string(error.reason)]
        }
    }

    package static func exactState(_ state: ExactGroupState) -> [String: JSONValue] {
        var fields: [String: JSONValue] = ["epoch": JSONValue(state.epoch)]
        for (name, value) in state.fields where name != "epoch" { fields[name] = value.map(JSONValue.string) ?? .null }
        return fields
    }
}

extension GroupImage {
    /// Image object (docs/driver-protocol.md, "Value conventions").
    package var jsonValue: JSONValue {
        .object(["hash": .string(hash.hexString), "key": .string(key.hexString), "nonce": .string(nonce.hexString)])
    }
}
