/// What a timer was started for.
enum TimerPurpose: Sendable, Codable {
    case keyPackageFetch(UInt64)
    /// The commit's wait for an accepting OK is over.
    case commit(chatID: String, eventID: String)
    /// The commit's settle window after its OK is over: decide the race and merge or yield.
    case commitSettled(chatID: String, eventID: String)
    case selfUpdate(chatID: String)
    case resubscribe(url: String)
    case channelRelays(channelID: String)
    case channelJoin(channelID: String)
    /// A relay test's deadline: relays that did not answer failed it.
    case channelRelayTest(channelID: String)
    /// Nothing to do but re-derive the state (a message disappears now).
    case roleRefresh(chatID: String)
    /// A welcome every relay refused is sent again.
    case welcomeRetry(eventID: String)
    /// A chat or control message every relay refused is sent again.
    case publishRetry(eventID: String)
    /// Commits of ours waited for the epoch a received commit made to settle.
    case deferredCommits(chatID: String)
    /// A publish (not a commit) still had relays that never answered: send it again or report it.
    case acknowledgementDue(eventID: String)
}
