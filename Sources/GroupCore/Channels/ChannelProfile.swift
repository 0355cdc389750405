import Nostr

/// The channel's profile as written into group descriptions (MIP-01 group data `description`):
/// the channel group's says what the channel is; each fan-out's names the channel it serves, so a
/// subscriber welcomed into it knows which of its channels (and which relay) the welcome is for.
///
///   {"marmot_channel": "<channel id or empty for the channel group>", "description": "...", "welcome": "..."}
struct ChannelProfile: Hashable, Sendable, Codable {
    /// Empty in the channel group itself; the channel id in a fan-out.
    var channelID: String
    var description: String
    var welcomeMessage: String

    func serialized() -> String {
        JSONValue.object([
            "marmot_channel": .string(channelID), "description": .string(description), "welcome": .string(welcomeMessage),
        ]).serialized()
    }

    /// Nil for descriptions that are not channel profiles (ordinary groups).
    init?(parsing text: String) {
        guard let object = (try? JSONValue(parsing: text))?.object, let channel = object["marmot_channel"]?.string else {
            return nil
        }
        channelID = channel
        description = object["description"]?.string ?? ""
        welcomeMessage = object["welcome"]?.string ?? ""
    }

    init(channelID: String, description: String, welcomeMessage: String) {
        self.channelID = channelID
        self.description = description
        self.welcomeMessage = welcomeMessage
    }
}
