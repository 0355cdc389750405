/// What a timer was started for.
enum TimerPurpose: Sendable {
    case keyPackageFetch(UInt64)
    case commit(chatID: String, eventID: String)
    case selfUpdate(chatID: String)
    case resubscribe(url: String)
    case channelRelays(channelID: String)
    case channelJoin(channelID: String)
}
