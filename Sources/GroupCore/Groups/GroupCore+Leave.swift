import Nostr

/// Our SelfRemove proposal waiting for an admin's commit.
struct LeaveProposal: Sendable, Codable {
    /// The epoch the proposal was made in: MLS proposals are bound to their epoch (RFC 9420
    /// §12.1), so a commit that moves the group past it without removing us killed it.
    var epoch: UInt64
    var attempts: Int
}

extension GroupCore {
    /// A non-admin's leave is a proposal: published, never merged; some admin's commit removes us.
    func leave(_ chat: ChatRecord) async {
        do {
            let proposal = try await engine.leaveGroup(chat.mlsGroupID)
            if configuration.behaviour.recovery.leaveDelivery {
                trackLeaveProposal(proposal.event, in: chat)
            }
            let attempts = commits.nextLeaveAttempt(in: chat.chatID)
            if configuration.behaviour.recovery.leaveProposals {
                commits.recordLeaveProposal(in: chat.chatID, epoch: chat.epoch, attempts: attempts)
            }
            // Boundary 9: the leave is recorded (write-ahead: the outbound gate is durable) and
            // the proposal has not gone out.
            if crashes(at: .leavingNotPublished, writeAhead: true) { return }
            publishSigned(proposal.event, to: chat.relays)
            note(
                attempts == 1
                    ? "proposed to leave \(chat.chatID.prefix(8))" : "proposed to leave \(chat.chatID.prefix(8)) again (\(attempts))")
        } catch {
            fail(error, during: "leaving", chatID: chat.chatID)
        }
    }

    /// A commit moved the group to a new epoch. If it did not take us out, our pending leave
    /// proposal died with the old epoch (a rename won the race, say): nothing else will ever
    /// carry it out, so we propose again in the new epoch, a bounded number of times.
    func leaveProposalAfterCommit(in chatID: String) async {
        let member = chats[chatID].flatMap { chat in !chat.isRemoved && chat.members.contains(publicKey) ? chat : nil }
        switch commits.leaveProposalAfterCommit(in: chatID, memberAt: member?.epoch) {
        case nil:
            return
        case .givenUp(let attempts):
            fail(CoreError(.commitNotAcknowledged, "leaving: no admin committed our proposal after \(attempts) proposals"), chatID: chatID)
        case .proposeAgain:
            guard let member else { return }
            await leave(member)
        }
    }

    /// The proposal must reach a relay: it waits in the outbox like a control message (held while
    /// the relays are unreachable, sent again when refused or unanswered, reported in the end). An
    /// earlier proposal of ours died with its epoch and is not sent again.
    private func trackLeaveProposal(_ event: Event, in chat: ChatRecord) {
        for (eventID, purpose) in traffic.publishes.sorted(by: { $0.key < $1.key }) {
            guard case .proposal(let chatID, _) = purpose, chatID == chat.chatID else { continue }
            traffic.publishes[eventID] = nil
            traffic.outbox.forget(eventID)
        }
        traffic.publishes[event.id.hex] = .proposal(chatID: chat.chatID, outstanding: Set(chat.relays))
        traffic.outbox.track(event, relays: chat.relays)
    }
}
