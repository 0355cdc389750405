import EngineInterface
import Nostr

// An invitation the user answers (seed 001 §2: an invited member is `invited` until it accepts,
// and can decline). With `Behaviour.invitations == .ask` a welcome that passed every check is
// processed by the engine (so it is known valid and its group's name and size can be shown) but
// not accepted: it waits in `AppState.invitations` until `AppAction.acceptInvitation` joins the
// group or `AppAction.declineInvitation` discards the welcome (`engine.declineWelcome`). Marmot
// has no message that tells the inviter about a decline (MIP-02 defines none), so nothing is
// sent: the inviter keeps the invitee as a member whose status stays `invited` until an admin
// removes it (docs/group-core.md, "Invitations the user answers").

/// A welcome processed but not accepted, waiting for the user's answer.
struct HeldInvitation: Sendable {
    let welcome: PendingWelcome
    let sender: PublicKey
    /// Dispatch order, so that invitations show oldest first.
    let sequence: UInt64
}

/// Whether a welcome is joined at once or waits for the user's answer.
package enum InvitationAcceptance: String, Sendable, CaseIterable {
    /// Joined as it arrives (the behaviour every scenario before seed 001 §2 was recorded with).
    case automatic
    /// Shown in `AppState.invitations` until the user accepts or declines it.
    case ask
}

extension GroupCore {
    /// Whether a welcome from `sender` waits for the user. Welcomes the user already asked for are
    /// joined at once: a chat relay's and a channel's (the owner or subscriber set them up), and
    /// one following a join-by-link request an admin accepted (the user opened the link).
    func asksBeforeJoining(from sender: PublicKey) -> Bool {
        guard configuration.behaviour.invitations == .ask, chatRelayConduct == nil, channels.records.isEmpty else { return false }
        let awaitingLinkJoin = ui.joinResults.contains { $0.status == .accepted && $0.chatID.map { chats[$0] == nil } ?? false }
        return !awaitingLinkJoin
    }

    /// Keeps a processed welcome for the user to answer.
    func holdInvitation(_ welcome: PendingWelcome, wrap: Event, sender: PublicKey) {
        let id = welcome.id.hex
        guard !membership.invitations.keys.contains(id) else { return }
        membership.invitations[id] = HeldInvitation(welcome: welcome, sender: sender, sequence: makeNumber())
        note("welcome \(id.prefix(8)) in wrap \(wrap.id.hex.prefix(8)) held for the user: '\(welcome.groupName)'")
        changed("invitation \(id.prefix(8))")
    }

    /// The invitations waiting for an answer, oldest first (nil while there are none, so that a
    /// state without any encodes as before).
    func invitationsForState() -> [Invitation]? {
        guard !membership.invitations.isEmpty else { return nil }
        return membership.invitations.values.sorted { $0.sequence < $1.sequence }.map { held in
            Invitation(
                welcomeID: held.welcome.id.hex, groupID: held.welcome.mlsGroupID.hex, groupName: held.welcome.groupName,
                inviter: held.sender,
                memberCount: held.welcome.memberCount, status: .invited)
        }
    }

    /// The user's answer to a held invitation: join its group, or discard its welcome.
    func answerInvitation(_ welcomeID: String, accept: Bool) async {
        guard let held = membership.invitations[welcomeID] else {
            fail(CoreError(.unknownInvitation, "no invitation \(welcomeID.prefix(16)) waits for an answer"), chatID: nil)
            return
        }
        membership.invitations[welcomeID] = nil
        changed("invitation \(welcomeID.prefix(8)) \(accept ? "accepted" : "declined")")
        guard accept else {
            do {
                try await engine.declineWelcome(held.welcome.id)
                note("declined welcome \(welcomeID.prefix(8)) to '\(held.welcome.groupName)'")
            } catch {
                fail(error, during: "declining an invitation", chatID: nil)
            }
            return
        }
        let snapshot: GroupSnapshot
        do {
            snapshot = try await engine.acceptWelcome(held.welcome.id)
        } catch {
            fail(error, during: "accepting an invitation", chatID: nil)
            return
        }
        await welcomed(into: snapshot, from: held.sender)
    }
}
