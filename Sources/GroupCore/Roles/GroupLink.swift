import Nostr

/// The group's link as the role table holds it: whoever has the token (and the admin's key)
/// may ask that admin to join.
package struct GroupLinkState: Hashable, Sendable, Codable {
    /// 16 random bytes in hex, drawn by the admin's core.
    package var token: String
    /// The role a joiner gets.
    package var role: Role
    /// True: requests wait in a queue for an admin's decision; false: auto-join.
    package var approval: Bool
    /// The admin who created the link and answers its requests.
    package var admin: PublicKey
}

/// Where an invited member stands, as every member (admins in particular) sees it.
package enum MemberStatus: String, Hashable, Sendable, Codable {
    /// Added by a commit; nothing heard from it yet.
    case invited
    /// It announced its completed join (welcome processed, post-join self-update merged, MIP-02).
    case accepted
    /// It has sent something since: messages flow both ways. The creator is connected.
    case connected
    /// Its invitation named a role, and it has held it: it announced its join, and the
    /// inviter's role (judged by the permission table when the invitation was made) applied, with
    /// the Marmot admin bit when the role needs one. Only members invited with a role get here, and
    /// a later change of role does not take it back.
    case complete
}

/// What an owner's deletion did to the group's history on every member.
package enum GroupDeletion: String, Hashable, Sendable, Codable {
    case historyKept = "kept"
    case historyDropped = "dropped"
}

/// Where a join request stands, as the requester sees it.
package struct JoinResult: Hashable, Sendable, Codable {
    package enum Status: String, Hashable, Sendable, Codable {
        /// Sent, no answer yet.
        case requested
        /// Waiting for an admin's decision (approval mode).
        case pending
        /// Accepted; the welcome has not arrived yet.
        case accepted
        /// Accepted and the group adopted.
        case joined
        /// An admin rejected the request.
        case rejected
        /// The link was deleted while the request waited.
        case invitationRemoved = "invitation-removed"
        /// The link's group is deleted, or its admin is no longer in it.
        case groupNotFound = "group-not-found"
        /// No group of that admin has this link.
        case linkNotFound = "link-not-found"
    }
    package var token: String
    package var status: Status
    package var chatID: String?
}

/// Gift-wrapped messages between a requester and a link's admin (NIP-59, rumors of our kinds):
///
///     request = kind 4451, content "{\"v\":1,\"token\":" 32-hex [",\"preview\":true"] "}"
///     answer  = kind 4452, content "{\"v\":1,\"token\":" 32-hex ",\"status\":" status [",\"group\":" hex ]
///               [",\"preview\":true"] "}"
///
/// A preview request asks whether the link stands without asking to join: its answer says what a
/// request would get now (`accepted`, `pending`, or why not) and the admin acts on nothing.
///     status  = "pending" | "accepted" | "rejected" | "invitation-removed" | "group-not-found" | "link-not-found"
struct LinkMessage: Hashable, Sendable, Codable {
    static let requestKind: Kind = 4451
    static let answerKind: Kind = 4452

    var token: String
    /// Nil in a request.
    var status: JoinResult.Status?
    var chatID: String?
    /// A preview (seed 001 §3): written only when true, so join requests keep their bytes.
    var preview = false

    func json() -> String {
        var fields: [String: JSONValue] = ["v": JSONValue(1), "token": .string(token)]
        if let status { fields["status"] = .string(status.rawValue) }
        if let chatID { fields["group"] = .string(chatID) }
        if preview { fields["preview"] = .bool(true) }
        return JSONValue.object(fields).serialized()
    }

    init(token: String, status: JoinResult.Status? = nil, chatID: String? = nil, preview: Bool = false) {
        self.token = token
        self.status = status
        self.chatID = chatID
        self.preview = preview
    }

    /// Parses an untrusted request (`answer: false`) or answer; failures are `core.malformedControl`.
    init(json text: String, answer: Bool) throws(CoreError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch { throw CoreError(.malformedControl, "not JSON: \(error.reason)") }
        guard let object = value.object, object["v"]?.int64 == 1, let token = object["token"]?.string, token.count == 32 else {
            throw CoreError(.malformedControl, "a link message needs v 1 and a 32-hex token")
        }
        self.token = token
        chatID = object["group"]?.string
        preview = object["preview"]?.bool == true
        guard answer else { return }
        guard let name = object["status"]?.string, let status = JoinResult.Status(rawValue: name),
            status != .requested, status != .joined
        else { throw CoreError(.malformedControl, "unknown join status") }
        self.status = status
    }
}
