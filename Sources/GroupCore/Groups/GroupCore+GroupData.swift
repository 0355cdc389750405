import EngineInterface

// Group data an admin changes besides the name (MIP-01: description, relays; the current profile's
// routing rotation), and the explicit
// self-update: each one commit, with the same OK, settling and race handling as a rename. Kept
// apart from `perform` so that async function stays small (docs: the Swift 6.3.1 release-build
// hazard with large async functions).
extension GroupCore {
    /// The commit an action asks for, or nil after recording why it cannot be made.
    private func groupDataChange(_ action: AppAction) -> (change: CommitChange, chat: ChatRecord)? {
        switch action {
        case .updateDescription(let chatID, let description):
            guard let chat = writableChat(chatID, needsAdmin: true) else { return nil }
            return (.groupData(GroupDataChanges(description: description), label: "describe"), chat)
        case .updateRelays(let chatID, let relays):
            guard let chat = writableChat(chatID, needsAdmin: true) else { return nil }
            var seen: Set<String> = []
            let relays = relays.filter { seen.insert($0).inserted }
            guard !relays.isEmpty else {
                fail(CoreError(.invalidAction, "a group needs at least one relay"), chatID: chatID)
                return nil
            }
            return (.groupData(GroupDataChanges(relays: relays), label: "set relays"), chat)
        case .rotateRouting(let chatID):
            guard let chat = writableChat(chatID, needsAdmin: true) else { return nil }
            // The new address is drawn from the core's seeded stream, so a run replays it.
            let nostrGroupID = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
            return (.groupData(GroupDataChanges(nostrGroupID: nostrGroupID), label: "rotate routing"), chat)
        case .disband(let chatID):
            // group-lifecycle-v1.md: an active admin's; the engine refuses it where the group has
            // no lifecycle to end (the legacy profile, a group that does not require 0x800c).
            guard let chat = writableChat(chatID, needsAdmin: true) else { return nil }
            return (.disband, chat)
        case .selfUpdate(let chatID):
            // Any member may refresh its own leaf.
            guard let chat = writableChat(chatID, needsAdmin: false) else { return nil }
            return (.selfUpdate, chat)
        default:
            return nil
        }
    }

    func performGroupDataAction(_ action: AppAction) async {
        guard let (change, chat) = groupDataChange(action) else { return }
        await commit(change, in: chat)
    }
}
