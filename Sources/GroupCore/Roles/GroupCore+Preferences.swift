import EngineInterface
import Nostr

// The preferences that switch kinds of traffic off (`voice-messages`, `files`, `direct-messages`):
// the sender's core refuses what the group's preferences forbid, and every receiver judges the
// same request in its role table (RoleBook), so a modified client gains nothing.
extension GroupCore {
    func performPreferenceAction(_ action: AppAction, forged: Bool) async {
        switch action {
        case .sendMedia(let chatID, let text, let media):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let view = roleView(of: chat)
            let request = PermissionRequest(
                actor: view.role(of: publicKey), action: media.kind.action, preferences: view.preferences ?? GroupPreferences())
            guard forged || permitted(request, in: chatID) else { return }
            await sendMessage(text, in: chat, media: media)
        case .startDirectMessage(let chatID, let member):
            // A 1:1 chat started from a group: the group hears of it (a `direct-message` control,
            // which its preference judges), then the chat is created as any 1:1. The target
            // declines the welcome when its own table refused the announcement.
            guard let chat = writableChat(chatID, needsAdmin: false), let view = roleTarget(member, in: chat) else { return }
            let request = PermissionRequest(
                actor: view.role(of: publicKey), action: .directMessage, target: view.role(of: member),
                preferences: view.preferences ?? GroupPreferences())
            guard forged || permitted(request, in: chatID) else { return }
            await sendControl(.directMessage(target: member), in: chat)
            await perform(.createChat(peer: member))
        default:
            break
        }
    }

    /// Whether a 1:1 welcome from `sender` answers a `direct-message` some group of ours refused
    /// (one decline per refused announcement).
    func declinesDirectMessage(from sender: PublicKey, memberCount: Int) -> Bool {
        guard memberCount == 2 else { return false }
        let refused = chats.values.reduce(0) { count, chat in
            count + roleView(of: chat).refusedDirectMessages.filter { $0.from == sender && $0.to == publicKey }.count
        }
        guard refused > membership.declinedDirectMessages[sender, default: 0] else { return false }
        membership.declinedDirectMessages[sender, default: 0] += 1
        return true
    }
}
