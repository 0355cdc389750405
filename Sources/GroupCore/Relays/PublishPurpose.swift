/// Why an event we published is being watched.
enum PublishPurpose: Sendable {
    case commit(chatID: String)
    case message(chatID: String, messageID: String, outstanding: Set<String>)
}
