// The trace vocabulary: how an app action and a core input are written into a run's trace (the
// `dispatch` lines) and into a schedule explorer's state key. The text is ours, written here case
// by case, never the compiler's description of the Swift value: the pinned trace fingerprints
// (vectors/scenarios/fingerprints.json) are a contract on these texts (docs/trace-vocabulary.md),
// and a case or parameter added to an action changes this file, not every pin by accident.
//
//     text      = verb *( " " parameter )
//     parameter = name "=" value
//     value     = quoted-string | hex-key | integer | "true" | "false" | word
//               | "[" [ value *( "," value ) ] "]"          (a list, in the order given)
//               | "{" parameter *( " " parameter ) "}"     (a record, every field, fixed order)
//               | "none"                                   (an optional without a value)
//
// Every parameter is written, default or not, in the order the case declares it. Strings are
// quoted with `"` and `\` escaped, control characters as `\u{…}`; public keys are full lowercase
// hex; byte payloads are written by their size (and MIME type), never byte by byte.
import Nostr

/// Pieces of the trace vocabulary shared by the cases.
package enum TraceText {
    /// A string as a trace value: quoted, `"` and `\` escaped, control characters spelled out, so
    /// that a text with spaces or `=` never reads as another parameter.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A list in the order given.
    package static func list(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// Public keys as full hex, in the order given (the order the user chose is part of the action).
    package static func keys(_ keys: [PublicKey]) -> String { list(keys.map(\.hex)) }

    /// A record: every field, in the order given.
    package static func record(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + "}"
    }

    /// A verb and its parameters, in order.
    package static func line(_ verb: String, _ parameters: [(String, String)]) -> String {
        ([verb] + parameters.map { "\($0.0)=\($0.1)" }).joined(separator: " ")
    }
}

extension AppAction {
    /// The action's name in the trace vocabulary: one per case (the compiler checks the switch is
    /// exhaustive), kebab-case, as the `dispatch` lines start.
    package enum Verb: String, CaseIterable, Sendable {
        case createChat = "create-chat"
        case createGroup = "create-group"
        case addMembers = "add-members"
        case decide
        case removeMembers = "remove-members"
        case leave, rename
        case updateDescription = "update-description"
        case updateRelays = "update-relays"
        case rotateRouting = "rotate-routing"
        case disband
        case setImage = "set-image"
        case sendMessage = "send-message"
        case openChat = "open-chat"
        case loadOlderMessages = "load-older-messages"
        case selfUpdate = "self-update"
        case setRole = "set-role"
        case deleteMessage = "delete-message"
        case block, unblock
        case setPreferences = "set-preferences"
        case setRoles = "set-roles"
        case sendMedia = "send-media"
        case startDirectMessage = "start-direct-message"
        case react
        case publishRoleTable = "publish-role-table"
        case createGroupLink = "create-group-link"
        case changeGroupLink = "change-group-link"
        case deleteGroupLink = "delete-group-link"
        case admitJoin = "admit-join"
        case rejectJoin = "reject-join"
        case joinByLink = "join-by-link"
        case acceptInvitation = "accept-invitation"
        case declineInvitation = "decline-invitation"
        case openLink = "open-link"
        case joinPrepared = "join-prepared"
        case cancelPrepared = "cancel-prepared"
        case deleteGroup = "delete-group"
        case shareHistory = "share-history"
        case forged
        case markRead = "mark-read"
        case mute, unmute
        case createChannel = "create-channel"
        case retryChannel = "retry-channel"
        case testChannelRelays = "test-channel-relays"
        case joinChannel = "join-channel"
        case retryJoinChannel = "retry-join-channel"
        case broadcast
        case leaveChannel = "leave-channel"
        case deleteChannel = "delete-channel"
    }

    /// The verb of this action.
    package var verb: Verb {
        switch self {
        case .createChat: .createChat
        case .createGroup: .createGroup
        case .addMembers: .addMembers
        case .decide: .decide
        case .removeMembers: .removeMembers
        case .leave: .leave
        case .rename: .rename
        case .updateDescription: .updateDescription
        case .updateRelays: .updateRelays
        case .rotateRouting: .rotateRouting
        case .disband: .disband
        case .setImage: .setImage
        case .sendMessage: .sendMessage
        case .openChat: .openChat
        case .loadOlderMessages: .loadOlderMessages
        case .selfUpdate: .selfUpdate
        case .setRole: .setRole
        case .deleteMessage: .deleteMessage
        case .block: .block
        case .unblock: .unblock
        case .setPreferences: .setPreferences
        case .setRoles: .setRoles
        case .sendMedia: .sendMedia
        case .startDirectMessage: .startDirectMessage
        case .react: .react
        case .publishRoleTable: .publishRoleTable
        case .createGroupLink: .createGroupLink
        case .changeGroupLink: .changeGroupLink
        case .deleteGroupLink: .deleteGroupLink
        case .admitJoin: .admitJoin
        case .rejectJoin: .rejectJoin
        case .joinByLink: .joinByLink
        case .acceptInvitation: .acceptInvitation
        case .declineInvitation: .declineInvitation
        case .openLink: .openLink
        case .joinPrepared: .joinPrepared
        case .cancelPrepared: .cancelPrepared
        case .deleteGroup: .deleteGroup
        case .shareHistory: .shareHistory
        case .forged: .forged
        case .markRead: .markRead
        case .mute: .mute
        case .unmute: .unmute
        case .createChannel: .createChannel
        case .retryChannel: .retryChannel
        case .testChannelRelays: .testChannelRelays
        case .joinChannel: .joinChannel
        case .retryJoinChannel: .retryJoinChannel
        case .broadcast: .broadcast
        case .leaveChannel: .leaveChannel
        case .deleteChannel: .deleteChannel
        }
    }

    /// The action as the trace writes it (docs/trace-vocabulary.md): its verb, then every
    /// parameter as `name=value`, in declaration order.
    package var traceText: String {
        typealias T = TraceText
        let q = T.quoted
        let parameters: [(String, String)]
        switch self {
        case .createChat(let peer): parameters = [("peer", peer.hex)]
        case .createGroup(let peers, let name, let description, let policy, let admins, let roles):
            parameters = [
                ("peers", T.keys(peers)), ("name", q(name)), ("description", q(description)), ("on-partial-failure", policy.rawValue),
                ("admins", T.keys(admins)), ("roles", Self.roles(roles)),
            ]
        case .addMembers(let chatID, let peers, let policy, let roles):
            parameters = [
                ("chat", q(chatID)), ("peers", T.keys(peers)), ("on-partial-failure", policy.rawValue), ("roles", Self.roles(roles)),
            ]
        case .decide(let decisionID, let choice): parameters = [("decision", q(decisionID)), ("choice", choice.rawValue)]
        case .removeMembers(let chatID, let members, let withMessages):
            parameters = [("chat", q(chatID)), ("members", T.keys(members)), ("with-messages", String(withMessages))]
        case .leave(let chatID), .loadOlderMessages(let chatID), .selfUpdate(let chatID), .publishRoleTable(let chatID),
            .deleteGroupLink(let chatID), .markRead(let chatID), .mute(let chatID), .unmute(let chatID):
            parameters = [("chat", q(chatID))]
        case .rename(let chatID, let name): parameters = [("chat", q(chatID)), ("name", q(name))]
        case .updateDescription(let chatID, let description): parameters = [("chat", q(chatID)), ("description", q(description))]
        case .updateRelays(let chatID, let relays): parameters = [("chat", q(chatID)), ("relays", T.list(relays.map(q)))]
        case .rotateRouting(let chatID), .disband(let chatID): parameters = [("chat", q(chatID))]
        case .setImage(let chatID, let image): parameters = [("chat", q(chatID)), ("image", image.traceText)]
        case .sendMessage(let chatID, let text): parameters = [("chat", q(chatID)), ("text", q(text))]
        case .openChat(let chatID, let pageSize): parameters = [("chat", q(chatID)), ("page-size", String(pageSize))]
        case .setRole(let chatID, let member, let role):
            parameters = [("chat", q(chatID)), ("member", member.hex), ("role", role.rawValue)]
        case .deleteMessage(let chatID, let messageID): parameters = [("chat", q(chatID)), ("message", q(messageID))]
        case .block(let chatID, let member), .unblock(let chatID, let member), .startDirectMessage(let chatID, let member),
            .shareHistory(let chatID, let member):
            parameters = [("chat", q(chatID)), ("member", member.hex)]
        case .setPreferences(let chatID, let preferences): parameters = [("chat", q(chatID)), ("preferences", preferences.traceText)]
        case .setRoles(let chatID, let roles): parameters = [("chat", q(chatID)), ("roles", Self.roles(roles))]
        case .sendMedia(let chatID, let text, let media): parameters = [("chat", q(chatID)), ("text", q(text)), ("media", media.traceText)]
        case .react(let chatID, let messageID, let emoji):
            parameters = [("chat", q(chatID)), ("message", q(messageID)), ("emoji", q(emoji))]
        case .createGroupLink(let chatID, let role, let approval):
            parameters = [("chat", q(chatID)), ("role", role.rawValue), ("approval", String(approval))]
        case .changeGroupLink(let chatID, let role): parameters = [("chat", q(chatID)), ("role", role.rawValue)]
        case .admitJoin(let chatID, let requester, let role):
            parameters = [("chat", q(chatID)), ("requester", requester.hex), ("role", role.rawValue)]
        case .rejectJoin(let chatID, let requester): parameters = [("chat", q(chatID)), ("requester", requester.hex)]
        case .joinByLink(let admin, let token): parameters = [("admin", admin.hex), ("token", q(token))]
        case .acceptInvitation(let welcomeID), .declineInvitation(let welcomeID): parameters = [("welcome", q(welcomeID))]
        case .openLink(let text): parameters = [("link", q(text))]
        case .joinPrepared(let token), .cancelPrepared(let token): parameters = [("token", q(token))]
        case .deleteGroup(let chatID, let keepHistory, let notify):
            parameters = [("chat", q(chatID)), ("keep-history", String(keepHistory)), ("notify", String(notify))]
        case .forged(let action): return "forged " + action.traceText
        case .createChannel(let relays, let name, let description, let welcomeMessage, let coOwners):
            parameters = [
                ("relays", T.keys(relays)), ("name", q(name)), ("description", q(description)), ("welcome", q(welcomeMessage)),
                ("co-owners", T.keys(coOwners)),
            ]
        case .retryChannel(let channelID), .testChannelRelays(let channelID), .retryJoinChannel(let channelID),
            .leaveChannel(let channelID), .deleteChannel(let channelID):
            parameters = [("channel", q(channelID))]
        case .joinChannel(let link): parameters = [("link", link.traceText)]
        case .broadcast(let channelID, let text): parameters = [("channel", q(channelID)), ("text", q(text))]
        }
        return T.line(verb.rawValue, parameters)
    }

    private static func roles(_ roles: [RoleAssignment]) -> String {
        TraceText.list(roles.map { "\($0.member.hex):\($0.role.rawValue)" })
    }
}

extension ImageFile {
    /// A picture by size and type: its bytes would make every `set-image` line as long as the picture.
    package var traceText: String { TraceText.record([("bytes", String(bytes.count)), ("mime", TraceText.quoted(mimeType))]) }
}

extension MediaAttachment {
    package var traceText: String {
        TraceText.record([
            ("url", TraceText.quoted(url)), ("mime", TraceText.quoted(mimeType)), ("filename", filename.map(TraceText.quoted) ?? "none"),
        ])
    }
}

extension ChannelLink {
    package var traceText: String {
        TraceText.record([
            ("channel", TraceText.quoted(channelID)), ("name", TraceText.quoted(name)), ("owners", TraceText.keys(owners)),
            ("relays", TraceText.keys(relays)),
        ])
    }
}

extension GroupPreferences {
    /// Every preference, switched on or off.
    package var traceText: String {
        TraceText.record([
            ("reactions", String(reactions)), ("full-deletion", String(fullDeletion)), ("disappear-after", String(disappearAfterSeconds)),
            ("history-for-new-members", String(historyForNewMembers)), ("welcome", TraceText.quoted(welcomeMessage)),
            ("voice-messages", String(voiceMessages)), ("files", String(files)), ("direct-messages", String(directMessages)),
        ])
    }
}

extension TimerToken {
    /// `t` and the token's number, as the `timer` lines write it.
    package var traceText: String { "t\(rawValue)" }
}

extension CoreInput {
    /// The input's name in the trace vocabulary (one per case).
    package enum Verb: String, CaseIterable, Sendable {
        case start, action, relay
        case relayFrame = "relay-frame"
        case relayUnreachable = "relay-unreachable"
        case relayReachable = "relay-reachable"
        case timer, blob
    }

    package var verb: Verb {
        switch self {
        case .start: .start
        case .action: .action
        case .relay: .relay
        case .relayFrame: .relayFrame
        case .relayUnreachable: .relayUnreachable
        case .relayReachable: .relayReachable
        case .timer: .timer
        case .blob: .blob
        }
    }

    /// The input as a schedule explorer's state key absorbs it (docs/trace-vocabulary.md): an
    /// action by its own text, a frame by its JSON text, a blob by its hash and size.
    package var traceText: String {
        let q = TraceText.quoted
        switch self {
        case .start: return verb.rawValue
        case .action(let action): return "action " + action.traceText
        case .relay(let url, let message): return TraceText.line(verb.rawValue, [("url", q(url)), ("message", q(message.json()))])
        case .relayFrame(let url, let frame): return TraceText.line(verb.rawValue, [("url", q(url)), ("frame", q(frame))])
        case .relayUnreachable(let url), .relayReachable(let url): return TraceText.line(verb.rawValue, [("url", q(url))])
        case .timer(let token): return TraceText.line(verb.rawValue, [("token", token.traceText)])
        case .blob(let hash, let bytes):
            return TraceText.line(verb.rawValue, [("hash", q(hash)), ("bytes", bytes.map { String($0.count) } ?? "none")])
        }
    }
}
