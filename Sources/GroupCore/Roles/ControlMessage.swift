import Nostr

/// A role-table control message: the JSON content of an inner rumor of kind 4450 (ours, not a
/// Marmot kind) carried in a kind-445 application message, so MLS authenticates its sender and
/// only members can read it (MIP-03 application messages).
///
///     control   = "{" "\"v\":1," "\"type\":" type "," "\"at\":" unix-seconds "," "\"seq\":" n { "," field } "}"
///     type      = "set-role" | "delete" | "block" | "unblock" | "snapshot" | "link" | "link-delete"
///               | "join-pending" | "join-decided" | "delete-group" | "purge" | "preferences" | "joined"
///               | "table-request" | "direct-message" | "set-roles" | "invitation-role"
///     set-role  : "target": hex-pubkey, "role": role-name
///     delete    : "message": hex-rumor-id
///     block     : "target": hex-pubkey          (unblock likewise)
///     snapshot  : "roles": { hex-pubkey: role-name }, "blocked": [ hex-pubkey ]
///                 [ "link": { "token": 32-hex, "role": role-name, "approval": bool, "admin": hex-pubkey } ]
///                 [ "status": { hex-pubkey: "invited" | "accepted" | "connected" | "complete" } ]
///     link      : "token": 32-hex, "role": role-name, "approval": bool   (create or change)
///     link-delete
///     join-pending / join-decided : "requester": hex-pubkey  (join-decided adds "accepted": bool)
///     delete-group : "keep-history": bool [ "," "notify": false ]   (absent: members are told;
///                 written only when false: absent means told)
///     purge     : "target": hex-pubkey          (hide all the target's messages)
///     joined    : (no fields; the sender announces its completed join)
///     table-request : (no fields; the sender lacks a table and asks an admin for a snapshot)
///     direct-message : "target": hex-pubkey  (the sender is starting a 1:1 chat with the target,
///                 a fellow member; judged against the group's `direct-messages` preference)
///     preferences : "preferences": { "reactions": bool, "full-deletion": bool, "disappear-after":
///                 seconds, "history-for-new-members": bool, "welcome": text
///                 [, "voice-messages": false] [, "files": false] [, "direct-messages": false] }
///                 (snapshots may carry it too; the last three are written only when false)
///     set-roles : "roles": { hex-pubkey: role-name }   (one batch: every change is allowed, or none applies)
///     invitation-role : "target": hex-pubkey, "role": role-name   (the role the sender invited the
///                 target with; it applies once the target announces its join)
///     role-name = "owner" | "admin" | "moderator" | "member" | "relay" | "observer"
///
/// `at` is the sender's clock (the world's virtual clock in simulation), not the rumor's
/// `created_at`: engines stamp rumors from their own clocks (MDK from the wall clock), and the
/// role table is applied in (`at`, sender, `seq`) order, which must be one scale for everyone.
/// `seq` grows with every message of one sender, so two of its messages in one second keep their
/// order (a rumor id would shuffle them).
struct ControlMessage: Hashable, Sendable, Codable {
    enum Body: Hashable, Sendable, Codable {
        case setRole(target: PublicKey, role: Role)
        case delete(messageID: String)
        case block(PublicKey)
        case unblock(PublicKey)
        case snapshot(
            roles: [PublicKey: Role], blocked: Set<PublicKey>, link: GroupLinkState?, preferences: GroupPreferences? = nil,
            status: [PublicKey: MemberStatus] = [:])
        case link(token: String, role: Role, approval: Bool)
        case linkDelete
        case joinPending(requester: PublicKey)
        case joinDecided(requester: PublicKey, accepted: Bool)
        /// `notify`: members get a `deleted` chat event (the default, the only form before it existed).
        case deleteGroup(keepHistory: Bool, notify: Bool = true)
        case purge(PublicKey)
        case preferences(GroupPreferences)
        /// The sender completed its join (welcome processed, post-join self-update merged).
        case joined
        /// The sender has no table (its snapshot was lost): an admin sends one again.
        case tableRequest
        /// The sender starts a 1:1 chat with `target` from this group.
        case directMessage(target: PublicKey)
        /// Several role changes, all or nothing (sorted by member key).
        case setRoles([RoleAssignment])
        /// The role `target` was invited with (applies at its join announcement).
        case invitationRole(target: PublicKey, role: Role)
    }

    static let kind: Kind = 4450
    /// Chat messages carry the sender's clock and sequence in this tag (`["at", at, seq]`), for the
    /// same reason as `at` and `seq`.
    static let atTag = "at"

    var body: Body
    var at: UInt64
    var seq: UInt64 = 0

    func json() -> String {
        var fields: [String: JSONValue] = ["v": JSONValue(1), "at": JSONValue(at), "seq": JSONValue(seq)]
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
        case .snapshot(let roles, let blocked, let link, let preferences, let status):
            fields["type"] = .string("snapshot")
            if !status.isEmpty {
                fields["status"] = .object(
                    Dictionary(uniqueKeysWithValues: status.map { ($0.key.hex, JSONValue.string($0.value.rawValue)) }))
            }
            if let preferences { fields["preferences"] = preferences.json() }
            if let link {
                fields["link"] = .object([
                    "token": .string(link.token), "role": .string(link.role.rawValue), "approval": .bool(link.approval),
                    "admin": .string(link.admin.hex),
                ])
            }
            fields["roles"] = .object(Dictionary(uniqueKeysWithValues: roles.map { ($0.key.hex, JSONValue.string($0.value.rawValue)) }))
            fields["blocked"] = .array(blocked.map(\.hex).sorted().map(JSONValue.string))
        case .link(let token, let role, let approval):
            fields["type"] = .string("link")
            fields["token"] = .string(token)
            fields["role"] = .string(role.rawValue)
            fields["approval"] = .bool(approval)
        case .linkDelete:
            fields["type"] = .string("link-delete")
        case .joinPending(let requester):
            fields["type"] = .string("join-pending")
            fields["requester"] = .string(requester.hex)
        case .joinDecided(let requester, let accepted):
            fields["type"] = .string("join-decided")
            fields["requester"] = .string(requester.hex)
            fields["accepted"] = .bool(accepted)
        case .joined:
            fields["type"] = .string("joined")
        case .tableRequest:
            fields["type"] = .string("table-request")
        case .directMessage(let target):
            fields["type"] = .string("direct-message")
            fields["target"] = .string(target.hex)
        case .setRoles(let changes):
            fields["type"] = .string("set-roles")
            fields["roles"] = .object(Dictionary(changes.map { ($0.member.hex, JSONValue.string($0.role.rawValue)) }) { first, _ in first })
        case .invitationRole(let target, let role):
            fields["type"] = .string("invitation-role")
            fields["target"] = .string(target.hex)
            fields["role"] = .string(role.rawValue)
        case .preferences(let preferences):
            fields["type"] = .string("preferences")
            fields["preferences"] = preferences.json()
        case .purge(let target):
            fields["type"] = .string("purge")
            fields["target"] = .string(target.hex)
        case .deleteGroup(let keepHistory, let notify):
            fields["type"] = .string("delete-group")
            fields["keep-history"] = .bool(keepHistory)
            if !notify { fields["notify"] = .bool(false) }
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
            var link: GroupLinkState?
            if let value = object["link"] {
                guard let fields = value.object, let token = fields["token"]?.string, token.count == 32,
                    let role = fields["role"]?.string.flatMap(Role.init(rawValue:)), let approval = fields["approval"]?.bool,
                    let admin = fields["admin"]?.string.flatMap({ try? PublicKey(hex: $0) })
                else { throw CoreError(.malformedControl, "bad snapshot link") }
                link = GroupLinkState(token: token, role: role, approval: approval, admin: admin)
            }
            let preferences = try object["preferences"].map { value throws(CoreError) in try GroupPreferences(json: value) }
            var status: [PublicKey: MemberStatus] = [:]
            for (hex, name) in object["status"]?.object ?? [:] {
                guard let key = try? PublicKey(hex: hex), let value = name.string.flatMap(MemberStatus.init(rawValue:)) else {
                    throw CoreError(.malformedControl, "bad snapshot status \(hex.prefix(16))")
                }
                status[key] = value
            }
            body = .snapshot(roles: roles, blocked: blocked, link: link, preferences: preferences, status: status)
        case "link":
            guard let token = object["token"]?.string, token.count == 32, let name = object["role"]?.string,
                let role = Role(rawValue: name), let approval = object["approval"]?.bool
            else { throw CoreError(.malformedControl, "link needs a 32-hex 'token', a 'role' and 'approval'") }
            body = .link(token: token, role: role, approval: approval)
        case "link-delete": body = .linkDelete
        case "joined": body = .joined
        case "table-request": body = .tableRequest
        case "direct-message": body = .directMessage(target: try key("target"))
        case "set-roles":
            guard let object = object["roles"]?.object, !object.isEmpty else {
                throw CoreError(.malformedControl, "set-roles needs a non-empty 'roles'")
            }
            var changes: [RoleAssignment] = []
            for (hex, name) in object {
                guard let key = try? PublicKey(hex: hex), let role = name.string.flatMap(Role.init(rawValue:)) else {
                    throw CoreError(.malformedControl, "bad set-roles entry \(hex.prefix(16))")
                }
                changes.append(RoleAssignment(member: key, role: role))
            }
            body = .setRoles(changes.sorted { $0.member.hex < $1.member.hex })
        case "invitation-role":
            guard let name = object["role"]?.string, let role = Role(rawValue: name) else {
                throw CoreError(.malformedControl, "missing or unknown 'role'")
            }
            body = .invitationRole(target: try key("target"), role: role)
        case "purge": body = .purge(try key("target"))
        case "preferences":
            guard let value = object["preferences"] else { throw CoreError(.malformedControl, "missing 'preferences'") }
            body = .preferences(try GroupPreferences(json: value))
        case "join-pending": body = .joinPending(requester: try key("requester"))
        case "join-decided":
            guard let accepted = object["accepted"]?.bool else { throw CoreError(.malformedControl, "missing 'accepted'") }
            body = .joinDecided(requester: try key("requester"), accepted: accepted)
        case "delete-group":
            guard let keep = object["keep-history"]?.bool else { throw CoreError(.malformedControl, "missing 'keep-history'") }
            var notify = true
            if let value = object["notify"] {
                guard let flag = value.bool else { throw CoreError(.malformedControl, "'notify' is not a boolean") }
                notify = flag
            }
            body = .deleteGroup(keepHistory: keep, notify: notify)
        default:
            throw CoreError(.malformedControl, "unknown type \(object["type"]?.serialized() ?? "none")")
        }
        self.body = body
        self.at = at
        guard let seq = object["seq"]?.uint64 else { throw CoreError(.malformedControl, "missing or bad 'seq'") }
        self.seq = seq
    }

    init(_ body: Body, at: UInt64, seq: UInt64 = 0) {
        self.body = body
        self.at = at
        self.seq = seq
    }
}

extension Kind {
    /// GroupCore's role-table control messages (inner rumors of kind-445 application messages).
    package static let roleControl: Kind = ControlMessage.kind
}
