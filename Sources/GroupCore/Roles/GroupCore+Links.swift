import EngineInterface
import Nostr

// Group links and admission, and deleting the group: the link and the pending queue live in the
// role table (so every admin sees them); requests and answers travel gift-wrapped between the
// requester and the link's admin.
extension GroupCore {
    func performLinkAction(_ action: AppAction, forged: Bool) async {
        switch action {
        case .createGroupLink(let chatID, let role, let approval):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let view = roleView(of: chat)
            guard forged || view.link == nil else {
                fail(CoreError(.duplicateGroupLink, "\(chatID.prefix(8)) already has a link"), chatID: chatID)
                return
            }
            let request = PermissionRequest(actor: view.role(of: publicKey), action: .manageLink, newRole: role)
            guard forged || permitted(request, in: chatID) else { return }
            let token = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }.map { byte in
                String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
            }.joined()
            await sendControl(.link(token: token, role: role, approval: approval), in: chat)
        case .changeGroupLink(let chatID, let role):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let view = roleView(of: chat)
            guard let link = view.link else {
                fail(CoreError(.invalidAction, "\(chatID.prefix(8)) has no link"), chatID: chatID)
                return
            }
            let request = PermissionRequest(actor: view.role(of: publicKey), action: .manageLink, newRole: role)
            guard forged || permitted(request, in: chatID) else { return }
            await sendControl(.link(token: link.token, role: role, approval: link.approval), in: chat)
        case .deleteGroupLink(let chatID):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let view = roleView(of: chat)
            guard let link = view.link else {
                fail(CoreError(.invalidAction, "\(chatID.prefix(8)) has no link"), chatID: chatID)
                return
            }
            guard forged || permitted(PermissionRequest(actor: view.role(of: publicKey), action: .manageLink), in: chatID) else { return }
            await sendControl(.linkDelete, in: chat)
            // Requests still waiting lose their invitation.
            for requester in view.pending {
                await sendControl(.joinDecided(requester: requester, accepted: false), in: chat)
                answer(requester, LinkMessage(token: link.token, status: .invitationRemoved))
            }
        case .admitJoin(let chatID, let requester, let role):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let view = roleView(of: chat)
            guard view.pending.contains(requester), let link = view.link else {
                fail(CoreError(.invalidAction, "no pending request from \(requester.hex.prefix(8))"), chatID: chatID)
                return
            }
            let request = PermissionRequest(actor: view.role(of: publicKey), action: .admit, newRole: role)
            guard forged || permitted(request, in: chatID) else { return }
            await sendControl(.joinDecided(requester: requester, accepted: true), in: chat)
            await admit(requester, role: role, token: link.token, in: chat)
        case .rejectJoin(let chatID, let requester):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let view = roleView(of: chat)
            guard view.pending.contains(requester), let link = view.link else {
                fail(CoreError(.invalidAction, "no pending request from \(requester.hex.prefix(8))"), chatID: chatID)
                return
            }
            guard forged || permitted(PermissionRequest(actor: view.role(of: publicKey), action: .admit), in: chatID) else { return }
            await sendControl(.joinDecided(requester: requester, accepted: false), in: chat)
            answer(requester, LinkMessage(token: link.token, status: .rejected))
        case .deleteGroup(let chatID, let keepHistory, let notify):
            guard let chat = writableChat(chatID, needsAdmin: false) else { return }
            let request = PermissionRequest(actor: roleView(of: chat).role(of: publicKey), action: .deleteGroup)
            guard forged || permitted(request, in: chatID) else { return }
            await sendControl(.deleteGroup(keepHistory: keepHistory, notify: notify), in: chat)
            if !forged { leaveRoute(chatID) }
        case .joinByLink(let admin, let token):
            ui.joinResults.append(JoinResult(token: token, status: .requested, chatID: nil))
            changed("join request \(token.prefix(8))")
            sendLinkMessage(LinkMessage(token: token), kind: LinkMessage.requestKind, to: admin)
        default:
            await perform(action)
        }
    }

    /// The joiner's role is set before the add commit, so the snapshot sent after the merge has it.
    private func admit(_ requester: PublicKey, role: Role, token: String, in chat: ChatRecord) async {
        if role != .member { await sendControl(.setRole(target: requester, role: role), in: chat) }
        answer(requester, LinkMessage(token: token, status: .accepted, chatID: chat.chatID))
        fetchKeyPackages(of: [requester], for: .add(chatID: chat.chatID))
    }

    private func answer(_ requester: PublicKey, _ message: LinkMessage) {
        sendLinkMessage(message, kind: LinkMessage.answerKind, to: requester)
    }

    func sendLinkMessage(_ message: LinkMessage, kind: Kind, to recipient: PublicKey) {
        let rumor = UnsignedEvent(pubkey: publicKey, createdAt: now, kind: kind, content: message.json())
        do {
            let wrap = try GiftWrap.wrap(rumor: rumor, sender: configuration.keypair, recipient: recipient, now: now, using: &random)
            publishSigned(wrap, to: directory.inboxRelays(of: recipient) ?? configuration.inboxRelays)
        } catch {
            fail(CoreError(.engine, "gift-wrapping a link message: \(error.reason)"), chatID: nil)
        }
    }

    /// A gift-wrapped request (we are the link's admin) or answer (we asked).
    func receiveLinkMessage(_ opened: GiftWrap.Unwrapped, wrap: Event) async {
        let isAnswer = opened.rumor.kind == LinkMessage.answerKind
        let message: LinkMessage
        do {
            message = try LinkMessage(json: opened.rumor.content, answer: isAnswer)
        } catch {
            reject(wrap, reason: error.code.name, detail: error.reason)
            return
        }
        if isAnswer, message.preview { return previewAnswered(message, wrap: wrap) }
        if isAnswer {
            guard let index = ui.joinResults.lastIndex(where: { $0.token == message.token }), let status = message.status else {
                reject(wrap, reason: "core.unexpectedJoinAnswer", detail: "no request of ours has token \(message.token.prefix(8))")
                return
            }
            ui.joinResults[index].status = status
            if let chatID = message.chatID { ui.joinResults[index].chatID = chatID }
            changed("join \(message.token.prefix(8)) \(status.rawValue)")
            return
        }
        await answerJoinRequest(message.token, from: opened.sender, preview: message.preview)
    }

    /// A join request, or a preview of one (what it would get now; nothing is done).
    private func answerJoinRequest(_ token: String, from requester: PublicKey, preview: Bool) async {
        let holders = chats.values.sorted { $0.chatID < $1.chatID }.filter { roleView(of: $0).link?.token == token }
        guard let chat = holders.first else {
            answer(requester, LinkMessage(token: token, status: .linkNotFound, preview: preview))
            return
        }
        let view = roleView(of: chat)
        guard !chat.isRemoved, view.deletion == nil, let link = view.link, view.role(of: publicKey) >= .admin else {
            answer(requester, LinkMessage(token: token, status: .groupNotFound, preview: preview))
            return
        }
        guard !chat.members.contains(requester) else {
            answer(requester, LinkMessage(token: token, status: .accepted, chatID: chat.chatID, preview: preview))
            return
        }
        if preview {
            answer(requester, LinkMessage(token: token, status: link.approval ? .pending : .accepted, preview: true))
            return
        }
        if link.approval {
            await sendControl(.joinPending(requester: requester), in: chat)
            answer(requester, LinkMessage(token: token, status: .pending))
        } else {
            await admit(requester, role: link.role, token: token, in: chat)
        }
    }

    /// Our join requests, with `accepted` shown as `joined` once the group is ours.
    func joinResultsForState() -> [JoinResult] {
        ui.joinResults.map { result in
            var result = result
            if result.status == .accepted, let chatID = result.chatID, chats[chatID] != nil { result.status = .joined }
            return result
        }
    }
}
