import ErrorCodes

// Why a receiver refuses a history packet (History/HistoryPacket.swift). Prefixed `history.`,
// like the permission table's `role.`, so that vectors keep them (our layer's reasons).
extension CoreError.Code {
    /// The packet's sender is not a Marmot admin in the epoch it was sent in: only the admin
    /// whose commit added the joiner sends history.
    package static let historyNotFromAdmin = Self("history.notFromAdmin")
    /// The group's owner turned history for new members off, yet a packet came.
    package static let historyDisabled = Self("history.disabled")
    /// The packet does not follow `HistoryPacket`'s grammar (or an entry is not a chat message).
    package static let historyMalformed = Self("history.malformed")
    /// An entry's id does not match its content: the message was altered on the way.
    package static let historyIDMismatch = Self("history.idMismatch")
}
