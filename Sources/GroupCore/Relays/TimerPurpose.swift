/// What a timer was started for.
enum TimerPurpose: Sendable {
    case keyPackageFetch(UInt64)
    case commit(chatID: String, eventID: String)
    case selfUpdate(chatID: String)
    case resubscribe(url: String)
    /// Nothing to do but re-derive the state (a message disappears now).
    case roleRefresh(chatID: String)
}
