import Nostr

/// Why an event we published is being watched.
enum PublishPurpose: Sendable, Codable {
    case commit(chatID: String)
    case message(chatID: String, messageID: String, outstanding: Set<String>)
    /// A control message (roles, deletions…): like a chat message, it waits in the outbox while
    /// its relays are unreachable, so a change made offline still reaches everyone.
    case control(chatID: String, outstanding: Set<String>)
    /// A welcome gift wrap: retried until one inbox relay accepts it (MIP-02: without it the
    /// invitee never joins). `retries` counts the sends after a refusal by every relay.
    case welcome(invitee: PublicKey, relays: [String], outstanding: Set<String>, retries: Int)
    /// Our SelfRemove proposal (a non-admin leaving): like a control message, it must reach a
    /// relay, or no admin ever commits it and we stay a member everywhere.
    case proposal(chatID: String, outstanding: Set<String>)

    /// The relays that have not answered yet, for the purposes that wait in the outbox.
    var outstanding: Set<String>? {
        switch self {
        case .commit: nil
        case .message(_, _, let outstanding), .control(_, let outstanding), .welcome(_, _, let outstanding, _),
            .proposal(_, let outstanding):
            outstanding
        }
    }

    /// The same purpose waiting for `outstanding`.
    func waiting(for outstanding: Set<String>) -> PublishPurpose {
        switch self {
        case .commit: self
        case .message(let chatID, let messageID, _): .message(chatID: chatID, messageID: messageID, outstanding: outstanding)
        case .control(let chatID, _): .control(chatID: chatID, outstanding: outstanding)
        case .proposal(let chatID, _): .proposal(chatID: chatID, outstanding: outstanding)
        case .welcome(let invitee, let relays, _, let retries):
            .welcome(invitee: invitee, relays: relays, outstanding: outstanding, retries: retries)
        }
    }
}
