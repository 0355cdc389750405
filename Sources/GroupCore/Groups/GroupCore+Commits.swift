import EngineInterface
import Nostr

extension GroupCore {
    /// Builds a commit with the engine and publishes it to the group's relays; it is merged only
    /// when one of them accepts it (MIP-02/03), and its welcomes leave only after that merge.
    func commit(_ change: CommitChange, in chat: ChatRecord) async {
        let group = chat.mlsGroupID
        do {
            let evolution: GroupEvolution
            switch change {
            case .add(let keyPackages): evolution = try await engine.addMembers(to: group, keyPackages: keyPackages)
            case .remove(let members): evolution = try await engine.removeMembers(from: group, pubkeys: members)
            case .rename(let name): evolution = try await engine.updateGroupData(of: group, GroupDataChanges(name: name))
            case .selfUpdate: evolution = try await engine.selfUpdate(in: group)
            }
            await publishCommit(evolution, label: change.label, in: chat.chatID)
        } catch {
            fail(error, during: change.label, chatID: chat.chatID)
        }
    }

    /// Publishes an evolution we hold pending in the engine and waits for an accepting OK.
    func publishCommit(_ evolution: GroupEvolution, label: String, in chatID: String) async {
        guard let chat = chats[chatID] else { return }
        let eventID = evolution.event.id.hex
        let invitees = evolution.welcomeRumors.compactMap { rumor in welcomeInvitee(of: rumor) }
        guard invitees.count == evolution.welcomeRumors.count else {
            try? await engine.clearPendingCommit(in: chat.mlsGroupID)
            fail(CoreError(.engine, "\(label): a welcome rumor names no key package we fetched"), chatID: chatID)
            return
        }
        let timer = startTimer(.commit(chatID: chatID, eventID: eventID), milliseconds: configuration.behaviour.commitTimeoutMilliseconds)
        commits[chatID] = PendingCommit(
            chatID: chatID, eventID: eventID, label: label, outstanding: Set(chat.relays),
            welcomes: zip(evolution.welcomeRumors, invitees).map { ($0, $1) }, timer: timer
        )
        publishes[eventID] = .commit(chatID: chatID)
        setBusy("commit-\(chatID)", BusyOperation(kind: label, chatID: chatID))
        note("published commit \(eventID.prefix(8)) (\(label)) to \(chat.relays.count) relay(s), waiting for OK")
        publishSigned(evolution.event, to: chat.relays)
    }

    /// The invitee of a welcome rumor: the author of the key package its `e` tag names.
    private func welcomeInvitee(of rumor: UnsignedEvent) -> PublicKey? {
        guard let keyPackageID = rumor.tags.first(where: { $0.first == "e" && $0.count > 1 })?[1] else { return nil }
        return keyPackageAuthors[keyPackageID]
    }

    func commitAcknowledged(chatID: String, eventID: String, accepted: Bool, message: String, from url: String) async {
        guard var pending = commits[chatID], pending.eventID == eventID, pending.outstanding.remove(url) != nil else {
            return
        }
        if accepted {
            await finishCommit(pending, acceptedBy: url)
        } else {
            pending.refusals.append("\(url): \(message)")
            commits[chatID] = pending
            if pending.outstanding.isEmpty {
                await abandonCommit(pending, why: "refused by every group relay (\(pending.refusals.joined(separator: "; ")))")
            }
        }
    }

    func commitTimedOut(chatID: String, eventID: String) async {
        guard let pending = commits[chatID], pending.eventID == eventID else { return }
        await abandonCommit(
            pending, why: "no accepting OK within \(configuration.behaviour.commitTimeoutMilliseconds) ms")
    }

    /// Accepted: merge, refresh, and only then gift-wrap and send the welcomes.
    private func finishCommit(_ pending: PendingCommit, acceptedBy url: String) async {
        end(pending)
        guard let chat = chats[pending.chatID] else { return }
        do {
            try await engine.mergePendingCommit(in: chat.mlsGroupID)
        } catch {
            fail(error, during: "merging \(pending.label)", chatID: pending.chatID)
            return
        }
        await refresh(pending.chatID)
        note("merged commit \(pending.eventID.prefix(8)) (\(pending.label)) after OK from \(url); epoch \(chats[pending.chatID]?.epoch ?? 0)")
        await afterMerge(chatID: pending.chatID, welcomed: !pending.welcomes.isEmpty, label: pending.label)
        sendWelcomes(pending.welcomes)
    }

    /// Not acknowledged: the staged commit is cleared, not merged, and the action fails visibly.
    private func abandonCommit(_ pending: PendingCommit, why: String) async {
        end(pending)
        guard let chat = chats[pending.chatID] else { return }
        do {
            try await engine.clearPendingCommit(in: chat.mlsGroupID)
            note("cleared commit \(pending.eventID.prefix(8)) (\(pending.label))")
        } catch {
            fail(error, during: "clearing \(pending.label)", chatID: pending.chatID)
        }
        fail(CoreError(.commitNotAcknowledged, "\(pending.label): \(why)"), chatID: pending.chatID)
    }

    private func end(_ pending: PendingCommit) {
        commits[pending.chatID] = nil
        publishes[pending.eventID] = nil
        timers[pending.timer] = nil
        setBusy("commit-\(pending.chatID)", nil)
    }

    /// MIP-02: each welcome rumor sealed by us and gift-wrapped to its invitee's inbox relays.
    func sendWelcomes(_ welcomes: [(rumor: UnsignedEvent, invitee: PublicKey)]) {
        for (rumor, invitee) in welcomes {
            do {
                let wrap = try GiftWrap.wrap(
                    rumor: rumor, sender: configuration.keypair, recipient: invitee, now: now, using: &random)
                let relays = directory.inboxRelays(of: invitee) ?? configuration.inboxRelays
                publishSigned(wrap, to: relays)
                note("sent welcome to \(invitee.hex.prefix(8)) in wrap \(wrap.id.hex.prefix(8))")
            } catch {
                fail(CoreError(.engine, "gift-wrapping a welcome: \(error.reason)"), chatID: nil)
            }
        }
    }
}
