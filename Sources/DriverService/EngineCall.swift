import Base64Encoding
import DriverProtocol
import EngineInterface
import Nostr

/// One engine method call: the request's params to a ``ProtocolEngine`` call, its answer to the
/// result object (docs/driver-protocol.md, "Methods").
enum EngineCall {
    static func perform(_ method: DriverMethod, _ params: Params, on engine: any ProtocolEngine) async throws(EngineError)
        -> [String: JSONValue]
    {
        switch method {
        case .hello, .createInstance, .destroyInstance, .closeInstance:
            throw EngineError(.internal, "\(method.rawValue) is served by the driver, not an instance")
        case .createKeyPackage:
            let draft = try await engine.createKeyPackage(
                for: try params.pubkey("public_key"), relays: try params.strings("relays"),
                protected: try params.bool("protected", default: false))
            return Records.keyPackage(draft)
        case .parseKeyPackage:
            try await engine.validateKeyPackage(try params.event("event"))
            return ["key_package": .string(try params.event("event").content)]
        case .createGroup:
            let created = try await engine.createGroup(try creation(params))
            return ["group": Records.group(created.group), "welcome_rumors": .array(try created.welcomeRumors.map(Records.rumor))]
        case .addMembers:
            return try Records.update(
                try await engine.addMembers(to: try params.group(), keyPackages: try params.events("key_package_events")))
        case .removeMembers:
            return try Records.update(try await engine.removeMembers(from: try params.group(), pubkeys: try params.pubkeys("pubkeys")))
        case .leaveGroup: return try Records.update(try await engine.leaveGroup(try params.group()))
        case .selfDemote: return try Records.update(try await engine.selfDemote(in: try params.group()))
        case .disbandGroup: return try Records.update(try await engine.disbandGroup(try params.group()))
        case .selfUpdate: return try Records.update(try await engine.selfUpdate(in: try params.group()))
        case .updateGroupData:
            return try Records.update(try await engine.updateGroupData(of: try params.group(), try changes(params)))
        case .mergePendingCommit:
            try await engine.mergePendingCommit(in: try params.group())
            return [:]
        case .clearPendingCommit:
            try await engine.clearPendingCommit(in: try params.group())
            return [:]
        case .createMessage:
            let kind = Kind(rawValue: UInt16(try params.integer("kind", in: 0...65_535)))
            let createdAt = params.has("created_at") ? UInt64(try params.integer("created_at", in: 0...Int64(1) << 53)) : nil
            let event = try await engine.createMessage(
                in: try params.group(), sender: try params.pubkey("sender_pubkey"), kind: kind, content: try params.string("content"),
                tags: try params.tags("tags"), createdAt: createdAt)
            return ["event": event.jsonValue]
        case .processMessage: return try Records.processing(try await engine.processMessage(try params.event("event")))
        default: return try await query(method, params, on: engine)
        }
    }

    /// The welcome and read-only methods.
    static func query(_ method: DriverMethod, _ params: Params, on engine: any ProtocolEngine) async throws(EngineError)
        -> [String: JSONValue]
    {
        switch method {
        case .processWelcome:
            let welcome = try await engine.processWelcome(
                wrapperID: try params.eventID("wrapper_event_id"), rumor: try params.rumor("rumor"))
            return ["welcome": Records.welcome(welcome)]
        case .acceptWelcome: return ["group": Records.group(try await engine.acceptWelcome(try params.eventID("welcome_id")))]
        case .declineWelcome:
            try await engine.declineWelcome(try params.eventID("welcome_id"))
            return [:]
        case .pendingWelcomes: return ["welcomes": .array(try await engine.pendingWelcomes().map(Records.welcome))]
        case .groups: return ["groups": .array(try await engine.groups().map(Records.group))]
        case .group: return ["group": Records.group(try await engine.group(try params.group()))]
        case .members: return ["pubkeys": Records.pubkeys(try await engine.members(of: try params.group()))]
        case .admins: return ["pubkeys": Records.pubkeys(try await engine.admins(of: try params.group()))]
        case .relays: return ["relays": .array(try await engine.relays(of: try params.group()).map(JSONValue.string))]
        case .epoch: return ["epoch": JSONValue(try await engine.epoch(of: try params.group()))]
        case .messages: return ["messages": .array(try await engine.messages(in: try params.group()).map(Records.message))]
        case .exactState: return Records.exactState(try await engine.exactState(of: try params.group()))
        case .protocolSnapshot: return Records.protocolSnapshot(try await engine.protocolSnapshot(of: try params.group()))
        case .prepareGroupImage:
            let prepared = try await engine.prepareGroupImage(try params.base64("image_data"), mimeType: try params.string("mime_type"))
            return Records.preparedImage(prepared)
        case .decryptGroupImage:
            guard let image = try params.object("image") else { throw params.bad("image", "is missing") }
            let data = try await engine.decryptGroupImage(try params.base64("encrypted_data"), with: try groupImage(image))
            return ["image_data": .string(Base64.encode(data))]
        default: throw EngineError(.internal, "\(method.rawValue) has no handler")
        }
    }

    static func creation(_ params: Params) throws(EngineError) -> GroupCreation {
        GroupCreation(
            creator: try params.pubkey("creator"), keyPackages: try params.events("key_package_events"), name: try params.string("name"),
            description: params.has("description") ? try params.string("description") : "", relays: try params.strings("relays"),
            admins: try params.pubkeys("admins"))
    }

    static let changeFields = ["name", "description", "relays", "admins", "image"]

    /// Image object: hash, key and nonce in hex, of their MIP-01 lengths.
    static func groupImage(_ fields: Params) throws(EngineError) -> GroupImage {
        let hash = try fields.bytes("hash", count: GroupImage.hashLength)
        let key = try fields.bytes("key", count: GroupImage.keyLength)
        let nonce = try fields.bytes("nonce", count: GroupImage.nonceLength)
        guard let image = GroupImage(hash: hash, key: key, nonce: nonce) else {
            throw fields.bad("image", "has fields of the wrong lengths")
        }
        return image
    }

    static func changes(_ params: Params) throws(EngineError) -> GroupDataChanges {
        guard let fields = try params.object("changes") else { throw params.bad("changes", "is missing") }
        if let unknown = fields.fields.keys.sorted().first(where: { !changeFields.contains($0) }) {
            throw fields.bad("changes", "has the unsupported field `\(unknown)`")
        }
        return GroupDataChanges(
            name: fields.has("name") ? try fields.string("name") : nil,
            description: fields.has("description") ? try fields.string("description") : nil,
            relays: fields.has("relays") ? try fields.strings("relays") : nil,
            admins: fields.has("admins") ? try fields.pubkeys("admins") : nil,
            image: try fields.object("image").map { (image) throws(EngineError) in try groupImage(image) })
    }
}
