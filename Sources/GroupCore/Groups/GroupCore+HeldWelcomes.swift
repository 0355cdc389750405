import EngineInterface
import Nostr

// A welcome back into a group we were removed from while away. A member offline while an admin
// removed it and added it again comes back to two kinds of stored event: the group's commits (its
// removal among them) on the group relays, and the re-adding welcome in its inbox. Group events
// wait for the relay's EOSE and go to the engine oldest first; a welcome is handled as it
// arrives, so it can come before the removal. An engine that refuses a welcome into a group it
// still holds (ours: a replayed old welcome would roll the group back, MIP-02) then leaves the
// member, once it has applied its removal, out of a group that took it back (catch-up depth
// family: readded cells). So a welcome refused as invalid while a resubscription (back from an
// outage or a lost connection) is catching up is kept, and tried again if a commit of that
// catch-up removes us; when the catch-ups end, what is kept is dropped. Only this window: a
// welcome refused at any other time (a replay) is never tried again. Holding every welcome until
// the catch-up is over instead was tried and is worse: MDK 0.8.0 accepts a welcome into a group it
// holds, but handed the removal first it records the events after it as failed and refuses them
// after the rejoin (docs/findings/mdk-catch-up-and-readd.md).
// The other order has its own trap: the removal applied first, the events after it (the
// re-adding commit, messages of the new epoch) are refused while we are out, and marked seen, so
// the group's stored events served again after the welcome are dropped as duplicates and the
// member never reads what was written in the epoch it was welcomed into. So events refused while
// we are out of a group are kept (at most `CatchUpBook.maximumFutureEvents`) and handed over again, in MIP-03
// order, when a welcome takes us back; those that open then have their rejection withdrawn.
extension GroupCore {
    /// A welcome the engine refused: kept if a resubscription is catching up (it may hold our
    /// removal from the group the welcome takes us back into).
    func keepRefusedInCatchUp(_ wrap: Event, opened: GiftWrap.Unwrapped) {
        guard configuration.behaviour.recovery.rejoinsAfterCatchUp else { return }
        catchUp.keepRefusedWelcome(wrap, opened: opened)
    }

    /// After a commit in `chatID`: if it took us out, the welcomes refused during this catch-up
    /// are tried again, oldest first.
    func retryRefusedWelcomesIfRemoved(from chatID: String) async {
        guard chats[chatID]?.isRemoved == true, catchUp.hasRefusedWelcomes else { return }
        for (wrap, opened) in catchUp.takeRefusedWelcomes() {
            note("welcome \(wrap.id.hex.prefix(8)) tried again after our removal from \(chatID.prefix(8))")
            await join(by: wrap, opened: opened, retry: true)
        }
    }

    func withdrawWelcomeRejection(_ wrap: Event) {
        ui.rejections.removeAll { $0.eventID == wrap.id.hex }
        note("welcome \(wrap.id.hex.prefix(8)) accepted; rejection withdrawn")
        changed("withdrawn rejection \(wrap.id.hex.prefix(8))")
    }

    /// A group event just refused: kept if we are out of its group (a welcome may take us back).
    func keepIfRemoved(_ event: Event, in chatID: String) {
        guard configuration.behaviour.recovery.rejoinsAfterCatchUp, chats[chatID]?.isRemoved == true else { return }
        catchUp.keepWhileRemoved(event, in: chatID)
    }

    /// A welcome took us back into `chatID`: what was refused while we were out goes to the
    /// engine again, oldest first, as kept events do (GroupCore+FutureEvents.swift): those of the
    /// new epoch open, the rest (of epochs before the welcome) fail quietly.
    func retryEventsMissedWhileRemoved(in chatID: String) async {
        guard let kept = catchUp.takeEventsWhileRemoved(in: chatID), chats[chatID]?.isRemoved == false else { return }
        note("rejoined \(chatID.prefix(8)): \(kept.count) event(s) refused while out handed over again")
        for event in kept {
            catchUp.retryCount = 0
            await processGroupEvent(event, retry: true)
        }
    }
}
