import ErrorCodes

extension CoreError.Code {
    /// No chat relay of a channel could be invited or became active (the owner may retry).
    package static let channelRelaysFailed = Self("core.channelRelaysFailed")
    /// No relay of a channel admitted us ("failed to join channel"; the subscriber may retry).
    package static let channelJoinFailed = Self("core.channelJoinFailed")
    /// Subscribers only read: posting to a channel is refused locally ("you are subscriber").
    package static let subscriberCannotPost = Self("core.subscriberCannotPost")
}
