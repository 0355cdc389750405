import EngineInterface
import Nostr

// Decoders for the record shapes of docs/driver-protocol.md ("Value conventions").
extension DriverReply {
    /// Group object.
    package func groupSnapshot() throws(EngineError) -> GroupSnapshot {
        GroupSnapshot(
            mlsGroupID: try mlsGroupID(),
            nostrGroupID: try string("nostr_group_id"),
            name: try string("name"),
            description: try string("description"),
            admins: try pubkeys("admin_pubkeys"),
            epoch: try uint64("epoch"),
            state: GroupSnapshot.State(rawValue: try string("state")),
            image: try snapshotImage()
        )
    }

    /// A group object's image: nil while `image_hash` is absent or null (no image set); otherwise
    /// hash, key and nonce must all be there with their MIP-01 lengths.
    package func snapshotImage() throws(EngineError) -> GroupImage? {
        guard let hash = fields["image_hash"], hash != .null else { return nil }
        let bytes = (hash: try hex("image_hash"), key: try hex("image_key"), nonce: try hex("image_nonce"))
        guard let image = GroupImage(hash: bytes.hash, key: bytes.key, nonce: bytes.nonce) else {
            throw malformed("image_hash", "comes with image fields of the wrong lengths (32, 32 and 12 bytes expected)")
        }
        return image
    }

    /// Image object.
    package func groupImage() throws(EngineError) -> GroupImage {
        guard let image = GroupImage(hash: try hex("hash"), key: try hex("key"), nonce: try hex("nonce")) else {
            throw malformed("hash", "comes with image fields of the wrong lengths (32, 32 and 12 bytes expected)")
        }
        return image
    }

    /// Update object.
    package func evolution() throws(EngineError) -> GroupEvolution {
        GroupEvolution(
            mlsGroupID: try mlsGroupID(),
            event: try event("evolution_event"),
            welcomeRumors: try rumors("welcome_rumors")
        )
    }

    /// Message object.
    package func receivedMessage() throws(EngineError) -> ReceivedMessage {
        ReceivedMessage(
            mlsGroupID: try mlsGroupID(),
            rumor: try rumor("rumor"),
            wrapperID: try eventID("event_id"),
            sender: try pubkey("sender_pubkey")
        )
    }

    /// Welcome object.
    package func pendingWelcome() throws(EngineError) -> PendingWelcome {
        guard let count = Int(exactly: try uint64("member_count")) else { throw malformed("member_count", "is too large") }
        return PendingWelcome(
            id: try eventID("id"),
            wrapperID: try eventID("wrapper_event_id"),
            mlsGroupID: try mlsGroupID(),
            groupName: try string("group_name"),
            groupDescription: try string("group_description"),
            groupAdmins: try pubkeys("group_admin_pubkeys"),
            groupRelays: try strings("group_relays"),
            welcomer: try pubkey("welcomer"),
            memberCount: count
        )
    }

    /// `process_message` result.
    package func processingResult() throws(EngineError) -> ProcessingResult {
        switch try string("type") {
        case "application_message": return .applicationMessage(try object("message").receivedMessage())
        case "commit":
            // `replaced`: the engine left that commit for `competitor`, which the group built on.
            guard fields["replaced"] != nil else { return .commit(try mlsGroupID()) }
            return .rivalCommit(try mlsGroupID(), replaced: try eventID("replaced"), competitor: try eventID("competitor"))
        case "proposal": return .proposal(try object("update").evolution())
        case "pending_proposal": return .pendingProposal(try mlsGroupID())
        case "ignored_proposal": return .ignoredProposal(try mlsGroupID(), reason: try string("reason"))
        case "external_join_proposal": return .externalJoinProposal(try mlsGroupID())
        case "unprocessable":
            let group = fields["mls_group_id"]?.string.map(MLSGroupID.init(hex:))
            return .unprocessable(group, reason: try string("reason"))
        case "previously_failed": return .previouslyFailed
        case "error": return .rejected(EngineError(EngineError.Code(try string("code")), try string("reason")))
        case let other: throw malformed("type", "is the unknown result type \(other)")
        }
    }

    /// `hello` result.
    package func engineCapabilities() throws(EngineError) -> EngineCapabilities {
        EngineCapabilities(
            name: try string("name"),
            version: try string("version"),
            capabilities: Set(try strings("capabilities").map(EngineCapability.init(rawValue:)))
        )
    }

    /// `create_key_package` result.
    package func keyPackageDraft() throws(EngineError) -> KeyPackageDraft {
        KeyPackageDraft(
            content: try string("content"),
            tags: try tags("tags"),
            legacyTags: try tags("tags_legacy"),
            dTag: try string("d_tag"),
            keyPackageRef: try string("key_package_ref")
        )
    }

    /// `exact_state` result: each digest 32 bytes of hex, or null where the engine does not expose it.
    package func exactState() throws(EngineError) -> ExactGroupState {
        func digest(_ name: String) throws(EngineError) -> String? {
            guard let value = fields[name], value != .null else { return nil }
            let text = try string(name)
            guard text.count == 64, text.allSatisfy(\.isHexDigit) else { throw malformed(name, "is not 32 bytes of hex") }
            return text.lowercased()
        }
        return ExactGroupState(
            epoch: try uint64("epoch"), ratchetTreeDigest: try digest("ratchet_tree_digest"), treeHash: try digest("tree_hash"),
            confirmedTranscriptHash: try digest("confirmed_transcript_hash"), groupContextHash: try digest("group_context_hash"),
            exporterCommitment: try digest("exporter_commitment"))
    }
}
