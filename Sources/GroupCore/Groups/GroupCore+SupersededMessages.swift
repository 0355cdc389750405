import EngineInterface
import Nostr

// Messages of a branch MIP-03 did not select (docs/group-core.md, "Messages of a branch that
// lost"; restart-matrix boundary 7, a selected branch that "supersedes previously delivered
// payloads").
//
// A competing commit MIP-03 ranks first can replace the one we applied after messages were read
// or written in the epoch it made. Those messages are of the losing branch: the winning branch's
// members never read them. The engine invalidates them (``ProtocolEngine/invalidatedMessages(in:)``)
// and we follow: someone else's is taken out of the chat (and its notification withdrawn) until
// its sender sends it again; ours is sent again at once, the same rumor in the epoch that won, so
// every member shows it once under the same identity (its rumor id) and it keeps its place in the
// chat. With that recovery off, ours is marked failed and the user told (`core.messageSuperseded`):
// never silently dropped.
extension GroupCore {
    /// Reconciles the chat with the engine's invalidated messages: after each commit applied (a
    /// branch switch is one), and after a restart (the app may have died before doing it).
    func withdrawInvalidatedMessages(in chatID: String) async {
        guard let chat = chats[chatID], !chat.isRemoved,
            let invalidated = try? await engine.invalidatedMessages(in: chat.mlsGroupID), !invalidated.isEmpty
        else { return }
        for message in invalidated {
            let id = message.rumor.id.hex
            if message.sender == publicKey {
                await resendSuperseded(message, in: chatID)
            } else if var shown = chats[chatID], shown.messages.contains(where: { $0.id == id }) {
                shown.messages.removeAll { $0.id == id }
                if let unread = shown.unreadIDs, unread.contains(id) {
                    shown.unreadIDs = unread.filter { $0 != id }
                    shown.unread = max(0, shown.unread - 1)
                }
                chats[chatID] = shown
                ui.notifications.intents.removeAll { $0.payload.chatID == chatID && $0.payload.messageID == id }
                changed("message \(id.prefix(8)) withdrawn: its branch lost")
            }
        }
    }

    /// Our message of the losing branch: sent again (the same rumor) in the epoch that won, or,
    /// with `resendsSupersededMessages` off, marked failed and reported.
    private func resendSuperseded(_ message: ReceivedMessage, in chatID: String) async {
        guard let chat = chats[chatID] else { return }
        let id = message.rumor.id.hex
        guard configuration.behaviour.recovery.resendsSupersededMessages else {
            guard let index = chat.messages.firstIndex(where: { $0.id == id }), chat.messages[index].delivery != .failed else { return }
            chats[chatID]?.messages[index].delivery = .failed
            fail(
                CoreError(.messageSuperseded, "message \(id.prefix(8)) was sent in an epoch a competing commit superseded (MIP-03)"),
                chatID: chatID)
            return
        }
        do {
            let event = try await engine.resendInvalidatedMessage(message.rumor.id, in: chat.mlsGroupID)
            if let index = chats[chatID]?.messages.firstIndex(where: { $0.id == id }) {
                chats[chatID]?.messages[index].delivery = .pending
            }
            note("message \(id.prefix(8)) sent again as \(event.id.hex.prefix(8)): its epoch was superseded")
            traffic.publishes[event.id.hex] = .message(chatID: chatID, messageID: id, outstanding: Set(chat.relays))
            traffic.outbox.track(event, relays: chat.relays)
            publishSigned(event, to: chat.relays)
        } catch {
            fail(error, during: "sending a superseded message again", chatID: chatID)
        }
    }
}
