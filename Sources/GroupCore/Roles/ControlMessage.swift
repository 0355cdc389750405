import Nostr

/// A role-table control message: the JSON content of an inner rumor of kind 4450 (ours, not a
/// Marmot kind) carried in a kind-445 application message, so MLS authenticates its sender and
/// only members can read it (MIP-03 application messages).
///
///     control   = "{" "\"v\":1," "\"type\":" type "," "\"at\":" unix-seconds { "," field } "}"
///     type      = "set-role" | "delete" | "block" | "unblock" | "snapshot"
///     set-role  : "target": hex-pubkey, "role": role-name
///     delete    : "message": hex-rumor-id
///     block     : "target": hex-pubkey          (unblock likewise)
///     snapshot  : "roles": { hex-pubkey: role-name }, "blocked": [ hex-pubkey ]
///     role-name = "owner" | "admin" | "moderator" | "member" | "relay" | "observer"
///
/// `at` is the sender's clock (the world's virtual clock in simulation), not the rumor's
/// `created_at`: engines stamp rumors from their own clocks (MDK from the wall clock), and the
/// role table is applied in (`at`, rumor id) order, which must be one scale for everyone.
struct ControlMessage: Hashable, Sendable {
    enum Body: Hashable, Sendable {
        case setRole(target: PublicKey, role: Role)
        case delete(messageID: String)
        case block(PublicKey)
        case unblock(PublicKey)
        case snapshot(roles: [PublicKey: Role], blocked: Set<PublicKey>)
    }

    static let kind: Kind = 4450
    /// Chat messages carry the sender's clock in this tag, for the same reason as `at`.
    static let atTag = "at"

    var body: Body
    var at: UInt64

    func json() -> String {
        var fields: [String: JSONValue] = ["v": JSONValue(1), "at": JSONValue(at)]
        switch body {
        case .setRole(let target, let role):
            fields["type"] = .string("set-role")
            fields["target"] = .string(target.hex)
            fields["role"] = .string(role.rawValue)
        case .delete(let messageID):
            fields["type"] = .string("delete")
            fields["message"] = .string(messageID)
        case .block(let target):
            fields["type"] = .string("block")
            fields["target"] = .string(target.hex)
        case .unblock(let target):
            fields["type"] = .string("unblock")
            fields["target"] = .string(target.hex)
        case .snapshot(let roles, let blocked):
            fields["type"] = .string("snapshot")
            fields["roles"] = .object(Dictionary(uniqueKeysWithValues: roles.map { ($0.key.hex, JSONValue.string($0.value.rawValue)) }))
            fields["blocked"] = .array(blocked.map(\.hex).sorted().map(JSONValue.string))
        }
        return JSONValue.object(fields).serialized()
    }

    /// Parses untrusted content; every failure is `core.malformedControl` with what is wrong.
    init(json text: String) throws(CoreError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch { throw CoreError(.malformedControl, "not JSON: \(error.reason)") }
        guard let object = value.object else { throw CoreError(.malformedControl, "not a JSON object") }
        guard object["v"]?.int64 == 1 else { throw CoreError(.malformedControl, "unknown version \(object["v"]?.serialized() ?? "none")") }
        guard let at = object["at"]?.uint64 else { throw CoreError(.malformedControl, "missing or bad 'at'") }
        func key(_ name: String) throws(CoreError) -> PublicKey {
            guard let hex = object[name]?.string else { throw CoreError(.malformedControl, "missing '\(name)'") }
            do { return try PublicKey(hex: hex) } catch { throw CoreError(.malformedControl, "'\(name)' is not a public key") }
        }
        let body: Body
        switch object["type"]?.string {
        case "set-role":
            guard let name = object["role"]?.string, let role = Role(rawValue: name) else {
                throw CoreError(.malformedControl, "missing or unknown 'role'")
            }
            body = .setRole(target: try key("target"), role: role)
        case "delete":
            guard let id = object["message"]?.string, id.count == 64 else { throw CoreError(.malformedControl, "missing or bad 'message'") }
            body = .delete(messageID: id)
        case "block": body = .block(try key("target"))
        case "unblock": body = .unblock(try key("target"))
        case "snapshot":
            guard let rolesObject = object["roles"]?.object, let blockedArray = object["blocked"]?.array else {
                throw CoreError(.malformedControl, "snapshot without 'roles' and 'blocked'")
            }
            var roles: [PublicKey: Role] = [:]
            for (hex, name) in rolesObject {
                guard let key = try? PublicKey(hex: hex), let role = name.string.flatMap(Role.init(rawValue:)) else {
                    throw CoreError(.malformedControl, "bad snapshot entry \(hex.prefix(16))")
                }
                roles[key] = role
            }
            var blocked: Set<PublicKey> = []
            for item in blockedArray {
                guard let key = item.string.flatMap({ try? PublicKey(hex: $0) }) else {
                    throw CoreError(.malformedControl, "bad blocked entry")
                }
                blocked.insert(key)
            }
            body = .snapshot(roles: roles, blocked: blocked)
        default:
            throw CoreError(.malformedControl, "unknown type \(object["type"]?.serialized() ?? "none")")
        }
        self.body = body
        self.at = at
    }

    init(_ body: Body, at: UInt64) {
        self.body = body
        self.at = at
    }
}

extension Kind {
    /// GroupCore's role-table control messages (inner rumors of kind-445 application messages).
    public static let roleControl: Kind = ControlMessage.kind
}
