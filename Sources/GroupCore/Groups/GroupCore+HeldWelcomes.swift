import EngineInterface
import Nostr

// A welcome into a group we still hold. A member offline while an admin removed it and added it
// again comes back to two kinds of stored event: the group's commits (its removal among them) on
// the group relays, and the re-adding welcome in its inbox. Group events wait for the relay's
// EOSE and go to the engine oldest first, but a welcome is handled as it arrives, so it can come
// before the removal: the engine then refuses it (a welcome must not replace a group we are in:
// a replayed old one would roll the group back, MIP-02), and the member, once it has applied its
// removal, stays out of a group that took it back (catch-up depth family: readded cells). So a
// welcome refused as invalid is kept (at most `maximumRefusedWelcomes`, oldest dropped) and tried
// again each time a chat of ours learns its removal; accepted then, its rejection is withdrawn.
// The other order has its own trap: the removal applied first, the events after it (the
// re-adding commit, messages of the new epoch) are refused while we are out, and marked seen, so
// the group's stored events served again after the welcome are dropped as duplicates and the
// member never reads what was written in the epoch it was welcomed into. So events refused while
// we are out of a group are kept (at most `maximumFutureEvents`) and handed over again, in MIP-03
// order, when a welcome takes us back; those that open then have their rejection withdrawn.
extension GroupCore {
    static let maximumRefusedWelcomes = 8

    func keepRefusedWelcome(_ wrap: Event) {
        guard configuration.behaviour.recovery.retriesWelcomesAfterRemoval,
            !refusedWelcomes.contains(where: { $0.id == wrap.id })
        else { return }
        refusedWelcomes.append(wrap)
        if refusedWelcomes.count > Self.maximumRefusedWelcomes {
            refusedWelcomes.removeFirst(refusedWelcomes.count - Self.maximumRefusedWelcomes)
        }
    }

    /// After a commit in `chatID`: if it took us out, the kept welcomes are tried again, oldest
    /// first (one of them may be the welcome back into this very group).
    func retryRefusedWelcomesIfRemoved(from chatID: String) async {
        guard chats[chatID]?.isRemoved == true, !refusedWelcomes.isEmpty else { return }
        let kept = refusedWelcomes
        refusedWelcomes = []
        for wrap in kept {
            // Unwrapping worked the first time and is deterministic; a failure now leaves it out.
            guard let opened = try? GiftWrap.unwrap(wrap, recipient: configuration.keypair) else { continue }
            note("welcome \(wrap.id.hex.prefix(8)) tried again after our removal from \(chatID.prefix(8))")
            await join(by: wrap, opened: opened, retry: true)
        }
    }

    func withdrawWelcomeRejection(_ wrap: Event) {
        rejections.removeAll { $0.eventID == wrap.id.hex }
        note("welcome \(wrap.id.hex.prefix(8)) accepted; rejection withdrawn")
        changed("withdrawn rejection \(wrap.id.hex.prefix(8))")
    }

    /// A group event just refused: kept if we are out of its group (a welcome may take us back).
    func keepIfRemoved(_ event: Event, in chatID: String) {
        guard configuration.behaviour.recovery.retriesWelcomesAfterRemoval, chats[chatID]?.isRemoved == true else { return }
        var kept = eventsWhileRemoved[chatID, default: []]
        guard !kept.contains(where: { $0.id == event.id }) else { return }
        kept.append(event)
        if kept.count > Self.maximumFutureEvents { kept.removeFirst(kept.count - Self.maximumFutureEvents) }
        eventsWhileRemoved[chatID] = kept
    }

    /// A welcome took us back into `chatID`: what was refused while we were out goes to the
    /// engine again, oldest first, as kept events do (GroupCore+FutureEvents.swift): those of the
    /// new epoch open, the rest (of epochs before the welcome) fail quietly.
    func retryEventsMissedWhileRemoved(in chatID: String) async {
        guard let kept = eventsWhileRemoved.removeValue(forKey: chatID), chats[chatID]?.isRemoved == false else { return }
        note("rejoined \(chatID.prefix(8)): \(kept.count) event(s) refused while out handed over again")
        for event in kept.sorted(by: { Event.inMIP03Order($0, $1) }) {
            retryCount = 0
            await processGroupEvent(event, retry: true)
        }
    }
}
