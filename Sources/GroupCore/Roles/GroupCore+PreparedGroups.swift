import Nostr

// Opening a group link before joining (seed 001 §3: a link is validated and the group shown
// before joining). The link text (GroupLinkText) is read first: a malformed one is
// `core.invalidLink`, one past its `expires` is `core.linkExpired`, and neither is shown. A
// readable link becomes a prepared group (`AppState.preparedGroups`): the name and member count
// the link states, `checking` while its admin is asked whether the link still stands (a preview
// request: the join request's rumor with `"preview": true`, answered like a request but acting on
// nothing). An answer that the link or its group is gone removes the entry with
// `core.linkDeleted`; otherwise it shows `ready` (joins at once) or `needs-approval`. Joining a
// prepared group sends the ordinary join request (GroupCore+Links.swift); cancelling drops it.

/// A group opened from a link and not joined yet.
package struct PreparedGroup: Hashable, Sendable, Codable {
    package enum Status: String, Hashable, Sendable, Codable {
        /// The link was read; its admin has not answered the preview yet.
        case checking
        /// The admin says the link stands and a request would be admitted at once.
        case ready
        /// The link stands and requests wait for an admin's approval.
        case needsApproval = "needs-approval"
    }
    package var token: String
    package var admin: PublicKey
    /// What the link states (nil when it states nothing).
    package var name: String?
    package var memberCount: Int?
    package var status: Status
}

extension GroupCore {
    /// The link an admin shares for a chat's group link: its token, and the chat's name and member
    /// count now. Nil when the chat has no link or its link is another admin's.
    package func shareableLink(of chatID: String) -> String? {
        guard let chat = chats[chatID], let link = roleView(of: chat).link, link.admin == publicKey else { return nil }
        return GroupLinkText(admin: link.admin, token: link.token, name: chat.name, memberCount: chat.members.count).text
    }

    func performPreparedAction(_ action: AppAction) async {
        switch action {
        case .openLink(let text):
            let link: GroupLinkText
            do {
                link = try GroupLinkText(parsing: text)
            } catch {
                fail(error, chatID: nil)
                return
            }
            if let expiry = link.expiresAt, expiry <= now {
                fail(CoreError(.linkExpired, "the link expired at \(expiry); it is \(now)"), chatID: nil)
                return
            }
            ui.prepared.removeAll { $0.token == link.token }
            ui.prepared.append(
                PreparedGroup(token: link.token, admin: link.admin, name: link.name, memberCount: link.memberCount, status: .checking))
            setBusy(Self.checkLinkKey(link.token), BusyOperation(kind: "checkLink", chatID: nil))
            sendLinkMessage(LinkMessage(token: link.token, preview: true), kind: LinkMessage.requestKind, to: link.admin)
        case .joinPrepared(let token):
            guard let prepared = ui.prepared.first(where: { $0.token == token }), prepared.status != .checking else {
                fail(CoreError(.invalidAction, "no prepared group with link \(token.prefix(8)) ready to join"), chatID: nil)
                return
            }
            ui.prepared.removeAll { $0.token == token }
            await performLinkAction(.joinByLink(admin: prepared.admin, token: token), forged: false)
        case .cancelPrepared(let token):
            guard ui.prepared.contains(where: { $0.token == token }) else {
                fail(CoreError(.invalidAction, "no prepared group with link \(token.prefix(8))"), chatID: nil)
                return
            }
            ui.prepared.removeAll { $0.token == token }
            setBusy(Self.checkLinkKey(token), nil)
            changed("prepared \(token.prefix(8)) cancelled")
        default:
            await perform(action)
        }
    }

    /// The admin's answer to our preview request.
    func previewAnswered(_ message: LinkMessage, wrap: Event) {
        guard let index = ui.prepared.firstIndex(where: { $0.token == message.token && $0.status == .checking }) else {
            reject(
                wrap, reason: "core.unexpectedJoinAnswer", detail: "no link of ours is being checked with token \(message.token.prefix(8))")
            return
        }
        setBusy(Self.checkLinkKey(message.token), nil)
        switch message.status {
        case .accepted: ui.prepared[index].status = .ready
        case .pending: ui.prepared[index].status = .needsApproval
        default:
            let gone = ui.prepared.remove(at: index)
            let why = message.status?.rawValue ?? "no status"
            fail(CoreError(.linkDeleted, "the link to '\(gone.name ?? "a group")' no longer stands (its admin: \(why))"), chatID: nil)
            return
        }
        changed("prepared \(message.token.prefix(8)) \(ui.prepared[index].status.rawValue)")
    }

    func preparedGroupsForState() -> [PreparedGroup]? { ui.prepared.isEmpty ? nil : ui.prepared }

    private static func checkLinkKey(_ token: String) -> String { "checkLink \(token)" }
}
