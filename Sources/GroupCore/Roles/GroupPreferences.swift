import Nostr

/// The owner's group preferences, carried in the role table (`preferences` control messages and
/// snapshots) and enforced by every receiver from their place in the table's order on.
package struct GroupPreferences: Hashable, Sendable {
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

    package init() {}

    func json() -> JSONValue {
        .object([
            "reactions": .bool(reactions), "full-deletion": .bool(fullDeletion),
            "disappear-after": JSONValue(disappearAfterSeconds), "history-for-new-members": .bool(historyForNewMembers),
            "welcome": .string(welcomeMessage),
        ])
    }

    init(json value: JSONValue) throws(CoreError) {
        guard let fields = value.object, let reactions = fields["reactions"]?.bool, let fullDeletion = fields["full-deletion"]?.bool,
              let disappear = fields["disappear-after"]?.uint64, let history = fields["history-for-new-members"]?.bool,
              let welcome = fields["welcome"]?.string
        else { throw CoreError(.malformedControl, "preferences need reactions, full-deletion, disappear-after, history-for-new-members, welcome") }
        self.reactions = reactions
        self.fullDeletion = fullDeletion
        disappearAfterSeconds = disappear
        historyForNewMembers = history
        welcomeMessage = welcome
    }
}
