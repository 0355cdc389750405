import DeterministicScheduler
import Nostr

/// What an injected event is made of before it is signed (NIP-01 fields other than id and sig).
package struct InjectRecipe: Sendable {
    /// The event copied (signature kept when nothing is changed and no signer is named).
    package var original: Event?
    package var unsigned: UnsignedEvent
    /// Who signs: a declared member's label, or nil for the original's signature or a throwaway key.
    package var signer: String?
    /// How the signed event is broken.
    package var breakage: Breakage?

    package enum Breakage: Sendable {
        case signature, id, content, createdAt
    }

    package init(original: Event?, unsigned: UnsignedEvent, signer: String?, breakage: Breakage?) {
        self.original = original
        self.unsigned = unsigned
        self.signer = signer
        self.breakage = breakage
    }
}

extension World {
    /// The label under which injected events are published (a connection of its own, like a
    /// separate client).
    static let injectorLabel = "(injector)"

    /// Events members published so far, oldest first, optionally of one kind and by one member
    /// (who published it, whatever key signed it).
    package func publishedEvents(kind: Kind? = nil, by member: String? = nil) -> [Event] {
        published.filter { (kind == nil || $0.event.kind == kind) && (member == nil || $0.member == member) }.map(\.event)
    }

    /// A key nobody in the world holds, drawn from the world's seeded inject stream.
    package func throwawayKeypair() -> Keypair {
        Keypair.generate(using: &injectStream)
    }

    /// Signs (or keeps) and then breaks the recipe's event. A named signer signs as itself (the
    /// pubkey becomes its key); with none, an unchanged copy keeps its signature and anything else
    /// is signed by a throwaway key.
    package func makeEvent(_ recipe: InjectRecipe) throws -> Event {
        var unsigned = recipe.unsigned
        var event: Event
        if let label = recipe.signer {
            guard let keypair = members[label]?.keypair else { throw NostrError(.invalidPublicKey, "no member '\(label)' to sign with") }
            unsigned.pubkey = keypair.publicKey
            event = try unsigned.signed(with: keypair, using: &injectStream)
        } else if let original = recipe.original, original.unsigned == unsigned {
            event = original
        } else {
            let keypair = throwawayKeypair()
            unsigned.pubkey = keypair.publicKey
            event = try unsigned.signed(with: keypair, using: &injectStream)
        }
        guard let breakage = recipe.breakage, var fields = event.jsonValue.object else { return event }
        switch breakage {
        case .signature: fields["sig"] = .string(randomHex(bytes: 64))
        case .id: fields["id"] = .string(randomHex(bytes: 32))
        case .content: fields["content"] = .string(event.content + " ")
        case .createdAt: fields["created_at"] = .number(String(event.createdAt + 1))
        }
        event = try Event.decodeUnverified(.object(fields))
        return event
    }

    /// Publishes `event` to `relay` from a connection of its own, or with `member` hands it to that
    /// member's live subscriptions there without the relay seeing it. Returns a line for the log.
    @discardableResult
    package func inject(_ event: Event, relay: String, to member: String?) -> String {
        let what = "\(event.id.hex.prefix(8)) kind \(event.kind) by \(event.pubkey.hex.prefix(8))"
        if let member {
            let frames = network.handOver(event, to: member, via: relay)
            record("inject", member, "\(what) via \(relay) on \(frames) subscription(s)")
            return "handed \(what) to \(member) via \(relay) (\(frames) subscription(s))"
        }
        network.send(ClientMessage.event(event).json(), from: Self.injectorLabel, to: relay)
        record("inject", relay, "published \(what)")
        return "published \(what) to \(relay)"
    }

    private func randomHex(bytes count: Int) -> String {
        var bytes: [UInt8] = []
        while bytes.count < count { withUnsafeBytes(of: injectStream.next().littleEndian) { bytes += $0 } }
        let digits = Array("0123456789abcdef")
        return String(bytes.prefix(count).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}

extension World {
    /// `rumor` sealed by member `label` and gift-wrapped to `recipient` (NIP-59), randomness from
    /// the inject stream: how a hostile member's welcome travels.
    package func giftWrap(_ rumor: UnsignedEvent, from label: String, to recipient: PublicKey) throws -> Event {
        guard let keypair = members[label]?.keypair else { throw NostrError(.invalidPublicKey, "no member '\(label)' to seal with") }
        return try GiftWrap.wrap(rumor: rumor, sender: keypair, recipient: recipient, now: network.unixSeconds, using: &injectStream)
    }
}
