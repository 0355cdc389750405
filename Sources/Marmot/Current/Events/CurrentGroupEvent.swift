import ErrorCodes
import HexEncoding
import Nostr

extension MarmotError.Code {
    /// A kind-445 event whose id or signature does not verify (checked before anything is decrypted).
    package static let groupEventBadEvent = Self("groupEvent.badEvent")
    /// A kind-445 content that is not base64 of at least 28 bytes (12-byte nonce + 16-byte tag).
    package static let groupEventContentTooShort = Self("groupEvent.contentTooShort")
    /// A kind-445 event signed by the account key of a member (the pubkey must be a fresh ephemeral key).
    package static let groupEventNotEphemeral = Self("groupEvent.notEphemeral")
}

// transports/nostr.md, "Group message delivery" (current profile):
//   kind 445, pubkey = a fresh ephemeral key per event (never an account key, never reused)
//   tags: ["h", <lower-case hex nostr_group_id>]   exactly one tag, one value
//         ["expiration", <unix seconds>]          optional (NIP-40; application messages only)
//         nothing else (no `encoding` tag)
//   group_event_key = MLS-Exporter("marmot", "group-event", 32)
//   content = base64(nonce[12] || ChaCha20-Poly1305(group_event_key, nonce, aad = "", MLSMessage))
//   receivers verify the id and signature first, and refuse content shorter than 28 bytes.
/// The kind-445 outer layer of the current profile. The cipher and the exporter key are the
/// legacy ones (``GroupEventCipher``, ``GroupEventKey``): the profiles differ only in tags and checks.
package enum CurrentGroupEvent {
    package static let minimumContentBytes = GroupEventCipher.nonceLength + 16

    /// Encrypts `message` (TLS MLSMessage bytes) under `key` and signs it with a fresh ephemeral
    /// key; `expiration` only for application messages of a group with retention on.
    package static func seal(
        _ message: [UInt8], key: [UInt8], nostrGroupID: [UInt8], createdAt: UInt64, expiration: UInt64? = nil,
        using generator: inout some RandomNumberGenerator
    ) throws(MarmotError) -> Event {
        let content = try GroupEventCipher.seal(message, key: key, using: &generator)
        return try GroupEventEnvelope.make(
            nostrGroupID: nostrGroupID, content: content, createdAt: createdAt,
            extraTags: expiration.map { [["expiration", String($0)]] } ?? [], encodingTag: false, using: &generator)
    }

    /// What the envelope says once verified.
    package struct Envelope: Hashable, Sendable {
        package let nostrGroupID: [UInt8]
        package let expiration: UInt64?
    }

    /// Checks the envelope: id and signature, kind, exact tags, content length. Nothing about the
    /// event is trusted before this passes.
    /// - Throws: `.groupEventBadEvent`, `.groupEventWrongKind`, `.groupEventInvalidTags`,
    ///   `.invalidBase64`, `.groupEventContentTooShort`.
    package static func check(_ event: Event) throws(MarmotError) -> Envelope {
        do { try event.verify() } catch { throw MarmotError(.groupEventBadEvent, error.reason) }
        guard event.kind == .groupEvent else { throw MarmotError(.groupEventWrongKind, "kind \(event.kind) is not 445") }
        let h = event.tags.filter { $0.first == "h" }
        guard h.count == 1, h[0].count == 2, h[0][1].count == 64, CurrentKeyPackageEvent.TagReader.isLowerHex(h[0][1]),
            let groupID = try? [UInt8](hex: h[0][1])
        else { throw MarmotError(.groupEventInvalidTags, "h must be exactly one tag with one lower-case hex 32-byte id") }
        let expirations = event.tags.filter { $0.first == "expiration" }
        guard event.tags.count == 1 + expirations.count, expirations.count <= 1 else {
            throw MarmotError(.groupEventInvalidTags, "a kind-445 event carries only h and at most one expiration tag")
        }
        var expiration: UInt64?
        if let tag = expirations.first {
            guard tag.count == 2, let value = UInt64(tag[1]), String(value) == tag[1] else {
                throw MarmotError(.groupEventInvalidTags, "expiration must have one decimal timestamp value")
            }
            expiration = value
        }
        let bytes = try Base64Content.decode(event.content)
        guard bytes.count >= minimumContentBytes else {
            throw MarmotError(.groupEventContentTooShort, "content of \(bytes.count) bytes is shorter than \(minimumContentBytes)")
        }
        return Envelope(nostrGroupID: groupID, expiration: expiration)
    }

    /// Checks the envelope, then tries each candidate epoch key in order (transports/nostr.md,
    /// "Outer decryption and epoch selection"); returns the MLSMessage bytes and the key's index.
    /// - Throws: the ``check(_:)`` codes, `.undecryptable` when no key opens the content.
    package static func open(_ event: Event, candidateKeys: [[UInt8]]) throws(MarmotError) -> (message: [UInt8], keyIndex: Int) {
        _ = try check(event)
        for (index, key) in candidateKeys.enumerated() {
            if let message = try? GroupEventCipher.open(event.content, key: key) { return (message, index) }
        }
        throw MarmotError(.undecryptable, "none of \(candidateKeys.count) candidate epoch keys opens the content")
    }

    /// The rule a receiver checks once the MLS sender is known: the event was not signed with a
    /// member's account key.
    /// - Throws: `.groupEventNotEphemeral`.
    package static func requireEphemeral(_ event: Event, accounts: Set<PublicKey>) throws(MarmotError) {
        guard !accounts.contains(event.pubkey) else {
            throw MarmotError(.groupEventNotEphemeral, "the event is signed by account key \(event.pubkey.hex), not an ephemeral key")
        }
    }
}
