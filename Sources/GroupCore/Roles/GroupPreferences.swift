import Nostr

/// The owner's group preferences, carried in the role table (`preferences` control messages and
/// snapshots) and enforced by every receiver from their place in the table's order on.
package struct GroupPreferences: Hashable, Sendable, Codable {
    /// Reactions (kind-7 rumors) are accepted.
    package var reactions = true
    /// Messages may be deleted for everyone.
    package var fullDeletion = true
    /// Messages disappear this many seconds (virtual time) after they were sent; 0: never.
    package var disappearAfterSeconds: UInt64 = 0
    /// Whether joiners are shown messages from before they joined. MLS gives a joiner no earlier
    /// epoch secrets, so on, the admin whose commit added them sends them the chat's last messages
    /// in their first epoch (History/HistoryPacket.swift); off, nothing is sent (and a packet that
    /// comes anyway is refused, `history.disabled`).
    package var historyForNewMembers = true
    /// Shown to members who join.
    package var welcomeMessage = ""
    /// Voice messages (chat messages whose NIP-92 `imeta` names an `audio/*` type) are accepted.
    package var voiceMessages = true
    /// File messages (chat messages with any other `imeta`) are accepted.
    package var files = true
    /// Members may start a 1:1 chat with a fellow member from this group (`direct-message`).
    package var directMessages = true

    package init() {}

    func json() -> JSONValue {
        var fields: [String: JSONValue] = [
            "reactions": .bool(reactions), "full-deletion": .bool(fullDeletion),
            "disappear-after": JSONValue(disappearAfterSeconds), "history-for-new-members": .bool(historyForNewMembers),
            "welcome": .string(welcomeMessage),
        ]
        // Written only when switched off: absent means on, so older clients, which require the
        // five fields above and know nothing of these, still read them.
        if !voiceMessages { fields["voice-messages"] = .bool(false) }
        if !files { fields["files"] = .bool(false) }
        if !directMessages { fields["direct-messages"] = .bool(false) }
        return .object(fields)
    }

    init(json value: JSONValue) throws(CoreError) {
        guard let fields = value.object, let reactions = fields["reactions"]?.bool, let fullDeletion = fields["full-deletion"]?.bool,
            let disappear = fields["disappear-after"]?.uint64, let history = fields["history-for-new-members"]?.bool,
            let welcome = fields["welcome"]?.string
        else {
            throw CoreError(
                .malformedControl, "preferences need reactions, full-deletion, disappear-after, history-for-new-members, welcome")
        }
        self.reactions = reactions
        self.fullDeletion = fullDeletion
        disappearAfterSeconds = disappear
        historyForNewMembers = history
        welcomeMessage = welcome
        func optional(_ name: String) throws(CoreError) -> Bool {
            guard let value = fields[name] else { return true }
            guard let flag = value.bool else { throw CoreError(.malformedControl, "preferences '\(name)' is not a boolean") }
            return flag
        }
        voiceMessages = try optional("voice-messages")
        files = try optional("files")
        directMessages = try optional("direct-messages")
    }
}
