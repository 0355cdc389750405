/// The core's notification memory: the intents raised so far (oldest first) and the muted chats.
struct NotificationLog: Sendable, Codable {
    var intents: [NotificationIntent] = []
    var muted: Set<String> = []
}
