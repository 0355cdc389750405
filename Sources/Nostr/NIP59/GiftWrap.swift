// NIP-59 gift wrap: a rumor (unsigned event) sealed by its author and wrapped by a one-time key,
// so relays learn only the recipient and a blurred time.
//
// https://github.com/nostr-protocol/nips/blob/master/59.md
//
//   rumor     = unsigned event with "id" (UnsignedEvent.rumorJSON())
//   seal      = { kind: 13,   pubkey: author, tags: [],
//                 content: NIP-44(author → recipient, rumor JSON),     created_at: now - random(0...2 days) }
//   gift wrap = { kind: 1059, pubkey: one-time key, tags: [["p", recipient]],
//                 content: NIP-44(one-time key → recipient, seal JSON), created_at: now - random(0...2 days) }

import ErrorCodes

extension NostrError.Code {
    /// The outer event is not kind 1059.
    public static let giftWrapWrongKind = Self("giftWrap.wrongKind")
    /// The decrypted seal is not kind 13.
    public static let giftWrapSealWrongKind = Self("giftWrap.sealWrongKind")
    /// The rumor's author is not the key that signed the seal: someone is speaking for another.
    public static let giftWrapSenderMismatch = Self("giftWrap.senderMismatch")
    /// A seal with tags (NIP-59: a seal's tags are empty).
    public static let giftWrapSealTagged = Self("giftWrap.sealTagged")
}

/// NIP-59 sealing and gift wrapping with injected time and randomness.
public enum GiftWrap {
    /// How far back seal and wrap timestamps are randomized, so that they do not reveal when the
    /// message was written: two days, in seconds.
    public static let timestampWindow: UInt64 = 172_800

    /// A successfully opened gift wrap.
    public struct Unwrapped: Hashable, Sendable {
        /// The message, with its id checked against its content.
        public let rumor: UnsignedEvent
        /// The author, proven by the seal's signature (equal to `rumor.pubkey`).
        public let sender: PublicKey
        /// The verified kind-13 seal.
        public let seal: Event
    }

    /// Seals `rumor` as `sender` and wraps it for `recipient`.
    ///
    /// The generator supplies, in order: the seal's timestamp offset, its NIP-44 nonce and its signature
    /// randomness, then the one-time key, the wrap's timestamp offset, NIP-44 nonce and signature
    /// randomness; so one seed reproduces the wrap byte for byte.
    /// - Throws: `.giftWrapSenderMismatch` when `rumor.pubkey` is not `sender`'s key.
    public static func wrap(
        rumor: UnsignedEvent, sender: Keypair, recipient: PublicKey, now: UInt64,
        using generator: inout some RandomNumberGenerator
    ) throws(NostrError) -> Event {
        guard rumor.pubkey == sender.publicKey else {
            throw NostrError(
                .giftWrapSenderMismatch, "rumor author \(rumor.pubkey.hex) is not the sealing key \(sender.publicKey.hex)"
            )
        }
        let seal = try seal(rumorJSON: rumor.rumorJSON(), sender: sender, recipient: recipient, now: now, using: &generator)
        return try wrap(sealJSON: seal.json(), recipient: recipient, now: now, using: &generator)
    }

    /// Opens a gift wrap addressed to `recipient`.
    /// - Throws: `.giftWrapWrongKind`, the event codes for a bad wrap or seal id or signature, the
    ///   NIP-44 codes for content that does not decrypt, `.giftWrapSealWrongKind`, `.rumorIDMismatch`,
    ///   or `.giftWrapSenderMismatch`. Reasons say whether the wrap, seal or rumor was at fault.
    public static func unwrap(_ wrap: Event, recipient: Keypair) throws(NostrError) -> Unwrapped {
        guard wrap.kind == .giftWrap || !GiftWrapCheck.wrapKind.isOn else {
            throw NostrError(.giftWrapWrongKind, "expected kind 1059, got \(wrap.kind.rawValue)")
        }
        // An Event may have been built with decodeUnverified; a wrap is only trusted once verified.
        if GiftWrapCheck.wrapSignature.isOn { try inContext("gift wrap") { () throws(NostrError) in try wrap.verify() } }
        let seal = try inContext("seal") { () throws(NostrError) -> Event in
            let seal = try Event.decodeUnverified(
                JSONValue(parsing: NIP44.decrypt(wrap.content, to: recipient.secretKey, from: wrap.pubkey)))
            if GiftWrapCheck.sealSignature.isOn { try seal.verify() }
            return seal
        }
        guard seal.kind == .seal || !GiftWrapCheck.sealKind.isOn else {
            throw NostrError(.giftWrapSealWrongKind, "expected a kind 13 seal, got kind \(seal.kind.rawValue)")
        }
        guard seal.tags.isEmpty || !GiftWrapCheck.sealTags.isOn else {
            throw NostrError(.giftWrapSealTagged, "a seal carries no tags (NIP-59), this one has \(seal.tags.count)")
        }
        let rumor = try inContext("rumor") { () throws(NostrError) -> UnsignedEvent in
            try UnsignedEvent(rumorJSON: NIP44.decrypt(seal.content, to: recipient.secretKey, from: seal.pubkey))
        }
        guard rumor.pubkey == seal.pubkey || !GiftWrapCheck.sealAuthor.isOn else {
            throw NostrError(
                .giftWrapSenderMismatch, "seal signed by \(seal.pubkey.hex) carries a rumor by \(rumor.pubkey.hex)"
            )
        }
        return Unwrapped(rumor: rumor, sender: seal.pubkey, seal: seal)
    }

    // MARK: - Layers, internal so tests can build malformed seals and wraps

    /// A kind-13 seal of arbitrary rumor text, signed by `sender`.
    static func seal(
        rumorJSON: String, sender: Keypair, recipient: PublicKey, now: UInt64,
        using generator: inout some RandomNumberGenerator
    ) throws(NostrError) -> Event {
        let createdAt = randomizedTimestamp(now: now, using: &generator)
        let content = try NIP44.encrypt(rumorJSON, from: sender.secretKey, to: recipient, using: &generator)
        return try UnsignedEvent(pubkey: sender.publicKey, createdAt: createdAt, kind: .seal, tags: [], content: content)
            .signed(with: sender, using: &generator)
    }

    /// A kind-1059 wrap of arbitrary seal text, signed by a one-time key drawn from `generator`.
    static func wrap(
        sealJSON: String, recipient: PublicKey, now: UInt64, using generator: inout some RandomNumberGenerator
    ) throws(NostrError) -> Event {
        let oneTimeKey = Keypair.generate(using: &generator)
        let createdAt = randomizedTimestamp(now: now, using: &generator)
        let content = try NIP44.encrypt(sealJSON, from: oneTimeKey.secretKey, to: recipient, using: &generator)
        return try UnsignedEvent(
            pubkey: oneTimeKey.publicKey, createdAt: createdAt, kind: .giftWrap, tags: [["p", recipient.hex]],
            content: content
        ).signed(with: oneTimeKey, using: &generator)
    }

    /// `now` minus up to two days, never below the epoch.
    static func randomizedTimestamp(now: UInt64, using generator: inout some RandomNumberGenerator) -> UInt64 {
        now - min(now, UInt64.random(in: 0...timestampWindow, using: &generator))
    }

    /// Prefixes the reason of any error from `body` with the layer it came from; the code is kept.
    private static func inContext<T>(_ layer: String, _ body: () throws(NostrError) -> T) throws(NostrError) -> T {
        do {
            return try body()
        } catch {
            throw NostrError(error.code, "\(layer): \(error.reason)")
        }
    }
}
