import ConformanceTestSupport
import Nostr
import Testing

@testable import GroupCore

/// The notification rules on their own: titles per context, the 100-character body cut, and the
/// messages that must stay silent.
@Suite struct NotificationRulesTests {
    static let sender: PublicKey = {
        var generator = TestGenerator(seed: 80)
        return Keypair.generate(using: &generator).publicKey
    }()

    func message(_ text: String, mine: Bool = false, name: String? = "Bob") -> ChatMessage {
        ChatMessage(
            id: String(repeating: "ab", count: 32), senderPubkey: Self.sender, senderName: name, content: text,
            timestamp: 1_700_000_123, isMine: mine, delivery: mine ? .sent : .received)
    }

    @Test func titlesNameSenderAndGroupOrChannel() throws {
        let chatID = String(repeating: "cd", count: 32)
        let group = try #require(
            NotificationRules.intent(for: message("hi"), chatID: chatID, context: .group(name: "Team"), muted: false, badge: 1))
        #expect(group.title == "Bob in Team" && group.body == "hi" && group.threadID == chatID)
        #expect(
            group.payload
                == NotificationPayload(
                    chatID: chatID, messageID: String(repeating: "ab", count: 32), senderID: Self.sender.hex, isGroup: true,
                    timestamp: 1_700_000_123))
        let direct = try #require(NotificationRules.intent(for: message("hi"), chatID: chatID, context: .direct, muted: false, badge: 1))
        #expect(direct.title == "Bob" && !direct.payload.isGroup)
        let channel = try #require(
            NotificationRules.intent(for: message("news"), chatID: chatID, context: .channel(name: "News"), muted: false, badge: 1))
        #expect(channel.title == "News")
    }

    /// The payload's type, the sound and the badge as the product story writes them.
    @Test func payloadTypeSoundAndBadge() throws {
        let chatID = String(repeating: "cd", count: 32)
        let intent = try #require(
            NotificationRules.intent(for: message("hi"), chatID: chatID, context: .group(name: "Team"), muted: false, badge: 7))
        #expect(intent.payload.type == .newMessage && intent.payload.type.rawValue == "new_message")
        #expect(intent.sound == "default" && intent.badge == 7)
        #expect(NotificationRules.sound(muted: true) == nil && NotificationRules.sound(muted: false) == "default")
    }

    /// The product story's fallbacks: an unnamed group is "Group Chat", an unknown sender "Someone".
    @Test func titlesFallBackForUnnamedGroupsAndUnknownSenders() throws {
        let chatID = String(repeating: "cd", count: 32)
        let unnamed = try #require(
            NotificationRules.intent(for: message("hi"), chatID: chatID, context: .group(name: ""), muted: false, badge: 1))
        #expect(unnamed.title == "Bob in Group Chat")
        let unknown = try #require(
            NotificationRules.intent(for: message("hi", name: nil), chatID: chatID, context: .group(name: "Team"), muted: false, badge: 1))
        #expect(unknown.title == "Someone in Team")
        let both = try #require(
            NotificationRules.intent(for: message("hi", name: ""), chatID: chatID, context: .group(name: ""), muted: false, badge: 1))
        #expect(both.title == "Someone in Group Chat")
        let direct = try #require(
            NotificationRules.intent(for: message("hi", name: nil), chatID: chatID, context: .direct, muted: false, badge: 1))
        #expect(direct.title == "Someone")
    }

    @Test func bodiesKeepAHundredCharactersAndMarkTheCut() {
        let exact = String(repeating: "a", count: 100)
        #expect(NotificationRules.body(of: exact) == exact)
        let long = String(repeating: "b", count: 150) + String(repeating: "c", count: 50)
        #expect(NotificationRules.body(of: long) == String(repeating: "b", count: 100) + "...")
        // Characters, not bytes or UTF-16 units: an emoji counts once and is never split.
        let emoji = String(repeating: "🦫", count: 101)
        #expect(NotificationRules.body(of: emoji) == String(repeating: "🦫", count: 100) + "...")
    }

    @Test func ownAndMutedMessagesRaiseNothing() {
        let chatID = String(repeating: "ef", count: 32)
        #expect(NotificationRules.intent(for: message("mine", mine: true), chatID: chatID, context: .direct, muted: false, badge: 0) == nil)
        #expect(NotificationRules.intent(for: message("muted"), chatID: chatID, context: .group(name: "T"), muted: true, badge: 0) == nil)
    }
}
