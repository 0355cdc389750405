import Nostr

extension Relay {
    /// EVENT: checks, stores by kind class, applies deletions, answers OK, then fans out live.
    ///
    /// The event's id and signature were verified when the frame was decoded (R1); this applies
    /// the relay-side rules in order: size, AUTH kind (R20), duplicate/deleted/superseded
    /// (R4–R6, R13, R15), NIP-40 expiry (R17), NIP-70 protection (R18).
    mutating func publish(_ event: Event, from connection: ConnectionID, now: UInt64) -> [RelayOutput] {
        let stored = StoredEvent(event)
        let id = stored.idHex
        func refuse(_ prefix: MachineReadablePrefix, _ text: String) -> RelayOutput {
            record("refuse \(id.prefix(8)) kind \(event.kind): \(prefix.message(text))")
            return ok(id, accepted: false, prefix.message(text), to: connection)
        }

        if stored.json.utf8.count > policy.maximumEventBytes {
            return [refuse(.invalid, "event of \(stored.json.utf8.count) bytes exceeds \(policy.maximumEventBytes)")]
        }
        if event.kind == .auth {
            return [refuse(.blocked, "kind 22242 is only accepted inside AUTH messages (NIP-42)")]
        }
        if !event.kind.isEphemeral, let refusal = store.refusal(for: stored) {
            switch refusal {
            case .duplicate:
                // NIP-01: a duplicate is acknowledged, and not broadcast again.
                record("duplicate \(id.prefix(8))")
                return [ok(id, accepted: true, MachineReadablePrefix.duplicate.message("already have this event"), to: connection)]
            case .deleted:
                return [refuse(.blocked, "this event was deleted by its author (NIP-09)")]
            case .superseded:
                return [refuse(.blocked, "a newer version of this replaceable event is stored")]
            }
        }
        if policy.honoursExpiration, stored.isExpired(at: now) {
            return [refuse(.blocked, "event expired at \(stored.expiration ?? 0) (NIP-40)")]
        }
        if stored.isProtected {
            guard policy.acceptsProtectedEvents else {
                return [refuse(.blocked, "protected events are not accepted by this relay (NIP-70)")]
            }
            let keys = state(of: connection).authenticated
            if keys.isEmpty {
                return [
                    authChallenge(to: connection),
                    refuse(.authRequired, "protected event: authenticate as its author first (NIP-70)"),
                ]
            }
            if !keys.contains(stored.pubkeyHex) {
                return [refuse(.restricted, "protected event may only be published by its authenticated author (NIP-70)")]
            }
        }

        if event.kind.isEphemeral {
            record("relay ephemeral \(id.prefix(8)) kind \(event.kind)")
        } else {
            for old in store.insert(stored) { record("replace \(old.idHex.prefix(8)) by \(id.prefix(8))") }
            record("store \(id.prefix(8)) kind \(event.kind)")
            if event.kind == .deletion {
                for gone in store.applyDeletion(stored) { record("delete \(gone.idHex.prefix(8)) by \(id.prefix(8))") }
            }
        }
        var out = [ok(id, accepted: true, "", to: connection)]
        for key in subscriptions.matching(stored) where isVisible(stored, to: key.connection) {
            out.append(eventFrame(stored, for: key))
        }
        return out
    }

    /// R21: with `giftWrapsRequireAuth`, a kind 1059 is visible only to its authenticated recipient.
    func isVisible(_ stored: StoredEvent, to connection: ConnectionID) -> Bool {
        guard policy.giftWrapsRequireAuth, stored.event.kind == .giftWrap else { return true }
        guard let recipient = stored.event.firstTagValue("p") else { return false }
        return connections[connection]?.authenticated.contains(recipient) == true
    }
}
