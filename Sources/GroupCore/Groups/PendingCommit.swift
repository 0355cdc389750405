import Nostr

/// A commit we published and have not merged: it waits for one accepting OK (MIP-02/03).
struct PendingCommit: Sendable {
    let chatID: String
    let eventID: String
    /// What the commit does, for notes and errors.
    let label: String
    var outstanding: Set<String>
    var refusals: [String] = []
    /// Welcome rumors and their invitees, sent only after the merge.
    let welcomes: [(rumor: UnsignedEvent, invitee: PublicKey)]
    let timer: TimerToken
}
