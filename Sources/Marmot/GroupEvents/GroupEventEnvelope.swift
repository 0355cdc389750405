import ErrorCodes
import HexEncoding
import Nostr

extension MarmotError.Code {
    /// Not kind 445.
    package static let groupEventWrongKind = Self("groupEvent.wrongKind")
    /// Not exactly one `h` tag of 64 hex characters.
    package static let groupEventInvalidTags = Self("groupEvent.invalidTags")
    /// created_at older than the accepted window.
    package static let groupEventTooOld = Self("groupEvent.tooOld")
    /// created_at too far in the future.
    package static let groupEventInFuture = Self("groupEvent.inFuture")
}

// MIP-03 kind-445 event: pubkey = one-time key, content = GroupEventCipher output,
//   tags [["h", hex(nostr_group_id)], ["encoding", "base64"]] (+ optional ["expiration", ts])
/// Building and checking the Nostr envelope of kind-445 group events.
package enum GroupEventEnvelope {
    /// MDK 0.8.0's acceptance window: 45 days back, 5 minutes ahead.
    package static let maximumAge: UInt64 = 45 * 86_400
    package static let maximumFutureSkew: UInt64 = 300

    /// Signs a kind-445 event with a fresh one-time key drawn from `generator` (never the member's key).
    /// `encodingTag`: the legacy profile marks the content `["encoding","base64"]`; the current
    /// profile forbids that tag (transports/nostr.md).
    package static func make(
        nostrGroupID: [UInt8], content: String, createdAt: UInt64, extraTags: [[String]] = [], encodingTag: Bool = true,
        using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> Event {
        let oneTime = Keypair.generate(using: &generator)
        return try nostr { () throws(NostrError) in
            try UnsignedEvent(
                pubkey: oneTime.publicKey, createdAt: createdAt, kind: .groupEvent,
                tags: [["h", nostrGroupID.hexString]] + (encodingTag ? [Base64Content.tag] : []) + extraTags, content: content
            ).signed(with: oneTime, using: &generator)
        }
    }

    /// The nostr_group_id an event is addressed to, after checking kind, tags and its time window at `now`.
    /// - Throws: `.groupEventWrongKind`, `.groupEventInvalidTags`, `.invalidEncoding`, `.groupEventTooOld`,
    ///   `.groupEventInFuture`.
    package static func check(_ event: Event, now: UInt64) throws(MarmotError) -> [UInt8] {
        guard event.kind == .groupEvent || !MarmotReceiverCheck.eventKind.isOn else {
            throw MarmotError(.groupEventWrongKind, "kind \(event.kind) is not 445")
        }
        let h = event.tags.filter { $0.first == "h" }
        guard h.count == 1 || (!h.isEmpty && !MarmotReceiverCheck.eventTags.isOn), h[0].count >= 2, h[0][1].count == 64,
            let id = try? [UInt8](hex: h[0][1])
        else {
            throw MarmotError(.groupEventInvalidTags, "expected exactly one h tag of 64 hex characters")
        }
        if MarmotReceiverCheck.eventTags.isOn { try Base64Content.requireTag(in: event.tags) }
        guard MarmotReceiverCheck.eventTimeWindow.isOn else { return id }
        if now > maximumAge, event.createdAt < now - maximumAge {
            throw MarmotError(.groupEventTooOld, "created_at \(event.createdAt) is more than 45 days before \(now)")
        }
        if event.createdAt > now, event.createdAt - now > maximumFutureSkew {
            throw MarmotError(.groupEventInFuture, "created_at \(event.createdAt) is more than 300 s after \(now)")
        }
        return id
    }
}
