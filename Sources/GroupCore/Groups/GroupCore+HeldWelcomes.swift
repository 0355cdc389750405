import EngineInterface
import Nostr

// A welcome back into a group we were removed from while away. A member offline while an admin
// removed it and added it again comes back to two kinds of stored event: the group's commits (its
// removal among them) on the group relays, and the re-adding welcome in its inbox. Group events
// wait for the relay's EOSE and go to the engine oldest first, but a welcome used to be handled as
// it arrived, so it could come before the removal: the engine refuses it (a welcome must not
// replace a group we are in: a replayed old one would roll the group back, MIP-02), and the
// member, once it has applied its removal, stayed out of a group that took it back (catch-up depth
// family: readded cells). So a welcome that arrives while a resubscription (back from an outage
// or a lost connection) is catching up waits until every such catch-up is over (milliseconds: the
// relays' EOSE), and is then handled as any welcome, once, with the same checks. Catch-ups of
// first subscriptions (a group just joined) hold no removal of ours and hold nothing up. (Trying a refused welcome again after our removal instead
// would let a replayed old welcome, refused while we were in, roll us into a dead epoch later.)
// The other order has its own trap: the removal applied first, the events after it (the
// re-adding commit, messages of the new epoch) are refused while we are out, and marked seen, so
// the group's stored events served again after the welcome are dropped as duplicates and the
// member never reads what was written in the epoch it was welcomed into. So events refused while
// we are out of a group are kept (at most `maximumFutureEvents`) and handed over again, in MIP-03
// order, when a welcome takes us back; those that open then have their rejection withdrawn.
extension GroupCore {
    /// At most this many welcomes wait, and for at most this long (the commit timeout: a
    /// catch-up takes a round trip to each relay, and a relay that never sends its EOSE must
    /// not hold our invitations for ever); then they are handled at once.
    static let maximumWelcomesAfterCatchUp = 16
    var welcomeCatchUpWaitMilliseconds: UInt64 { configuration.behaviour.commitTimeoutMilliseconds }

    /// A welcome arriving while a resubscription is still catching up waits (true) until every
    /// such catch-up is over, or the wait runs out.
    func holdUntilCaughtUp(_ wrap: Event, opened: GiftWrap.Unwrapped) -> Bool {
        guard configuration.behaviour.recovery.rejoinsAfterCatchUp, !returningCatchUps.isEmpty,
            welcomesAfterCatchUp.count < Self.maximumWelcomesAfterCatchUp
        else { return false }
        note("welcome \(wrap.id.hex.prefix(8)) waits for \(returningCatchUps.count) group catch-up(s)")
        if welcomesAfterCatchUp.isEmpty { _ = startTimer(.welcomesAfterCatchUp, milliseconds: welcomeCatchUpWaitMilliseconds) }
        welcomesAfterCatchUp.append((wrap, opened))
        return true
    }

    /// A catch-up ended (or the wait ran out): once none is left, the held welcomes are handled
    /// in arrival order.
    func welcomesAfterCaughtUp(waitedEnough: Bool) async {
        guard !welcomesAfterCatchUp.isEmpty, returningCatchUps.isEmpty || waitedEnough else { return }
        if let token = timers.first(where: { if case .welcomesAfterCatchUp = $0.value { true } else { false } })?.key {
            timers[token] = nil
            emit(.cancelTimer(token))
        }
        let held = welcomesAfterCatchUp
        welcomesAfterCatchUp = []
        for (wrap, opened) in held { await join(by: wrap, opened: opened) }
    }

    /// A group event just refused: kept if we are out of its group (a welcome may take us back).
    func keepIfRemoved(_ event: Event, in chatID: String) {
        guard configuration.behaviour.recovery.rejoinsAfterCatchUp, chats[chatID]?.isRemoved == true else { return }
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
