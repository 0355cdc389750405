import ConformanceTestSupport

@testable import Nostr

/// The NIP-59 rules of `GiftWrap.unwrap` (Nostr/NIP59/GiftWrapCheck.swift), each with a gift wrap
/// valid in every other respect: alice's rumor for bob, sealed and wrapped by hand so that one layer
/// breaks one rule. GroupCore opens every wrap it receives (welcomes, link and channel control) with
/// `unwrap`, so these rows drive it directly.
extension EngineReceiverCheckTests {
    struct GiftWrapRoom {
        var generator: TestGenerator
        let alice: Keypair, bob: Keypair, mallory: Keypair
        let now: UInt64 = 1_790_000_000

        init(seed: UInt64) {
            generator = TestGenerator(seed: seed)
            alice = Keypair.generate(using: &generator)
            bob = Keypair.generate(using: &generator)
            mallory = Keypair.generate(using: &generator)
        }

        func rumor(by author: Keypair) -> UnsignedEvent {
            UnsignedEvent(pubkey: author.publicKey, createdAt: now, kind: .textNote, tags: [], content: "meet at noon")
        }

        /// A seal of `rumorJSON` signed by `signer`, of `kind`.
        mutating func seal(_ rumorJSON: String, by signer: Keypair, kind: Kind = .seal, tags: [[String]] = []) throws -> Event {
            let content = try NIP44.encrypt(rumorJSON, from: signer.secretKey, to: bob.publicKey, using: &generator)
            return try UnsignedEvent(pubkey: signer.publicKey, createdAt: now, kind: kind, tags: tags, content: content)
                .signed(with: signer, using: &generator)
        }

        /// A wrap of `sealJSON` for bob by a one-time key, of `kind`.
        mutating func wrap(_ sealJSON: String, kind: Kind = .giftWrap) throws -> Event {
            let oneTime = Keypair.generate(using: &generator)
            let content = try NIP44.encrypt(sealJSON, from: oneTime.secretKey, to: bob.publicKey, using: &generator)
            return try UnsignedEvent(
                pubkey: oneTime.publicKey, createdAt: now, kind: kind, tags: [["p", bob.publicKey.hex]], content: content
            )
            .signed(with: oneTime, using: &generator)
        }

        /// `event` with the last bit of its signature flipped, as a relay frame would hand it over
        /// before anyone verified it.
        static func flippedSignature(_ event: Event) throws -> Event {
            var fields = event.jsonValue.object ?? [:]
            var sig = event.sig
            sig[sig.count - 1] ^= 1
            fields["sig"] = .string(sig.hexString)
            return try Event.decodeUnverified(.object(fields))
        }

        /// Bob's answer: `accepted` when the wrap opens, else the error's code.
        func bobOpens(_ wrap: Event) -> String {
            do {
                let opened = try GiftWrap.unwrap(wrap, recipient: bob)
                return opened.rumor.content == "meet at noon" ? "accepted" : "opened a different rumor"
            } catch { return error.code.name }
        }
    }

    static func attack(for check: GiftWrapCheck) -> Attack {
        switch check {
        case .wrapKind:
            Attack(name: "alice's wrap to bob re-signed as kind 1 by its one-time key (GiftWrap.unwrap)", expected: "giftWrap.wrongKind") {
                var room = GiftWrapRoom(seed: 90)
                let seal = try room.seal(room.rumor(by: room.alice).rumorJSON(), by: room.alice)
                return room.bobOpens(try room.wrap(seal.json(), kind: .textNote))
            }
        case .wrapSignature:
            Attack(name: "alice's wrap to bob whose signature is off by one bit (GiftWrap.unwrap)", expected: "event.badSignature") {
                var room = GiftWrapRoom(seed: 91)
                let seal = try room.seal(room.rumor(by: room.alice).rumorJSON(), by: room.alice)
                return room.bobOpens(try GiftWrapRoom.flippedSignature(room.wrap(seal.json())))
            }
        case .sealKind:
            Attack(name: "alice's rumor to bob in a seal of kind 1 (GiftWrap.unwrap)", expected: "giftWrap.sealWrongKind") {
                var room = GiftWrapRoom(seed: 92)
                let seal = try room.seal(room.rumor(by: room.alice).rumorJSON(), by: room.alice, kind: .textNote)
                return room.bobOpens(try room.wrap(seal.json()))
            }
        case .sealSignature:
            Attack(name: "alice's seal to bob whose signature is off by one bit (GiftWrap.unwrap)", expected: "event.badSignature") {
                var room = GiftWrapRoom(seed: 93)
                let seal = try GiftWrapRoom.flippedSignature(room.seal(room.rumor(by: room.alice).rumorJSON(), by: room.alice))
                return room.bobOpens(try room.wrap(seal.json()))
            }
        case .sealAuthor:
            Attack(name: "a rumor naming alice as author, sealed by mallory (GiftWrap.unwrap)", expected: "giftWrap.senderMismatch") {
                var room = GiftWrapRoom(seed: 94)
                let seal = try room.seal(room.rumor(by: room.alice).rumorJSON(), by: room.mallory)
                return room.bobOpens(try room.wrap(seal.json()))
            }
        case .sealTags:
            Attack(name: "alice's seal to bob carrying a `p` tag naming bob (GiftWrap.unwrap)", expected: "giftWrap.sealTagged") {
                var room = GiftWrapRoom(seed: 95)
                let seal = try room.seal(room.rumor(by: room.alice).rumorJSON(), by: room.alice, tags: [["p", room.bob.publicKey.hex]])
                return room.bobOpens(try room.wrap(seal.json()))
            }
        }
    }

    /// The answer to a gift-wrap attack, with `check` (if any) switched off.
    static func giftWrapOutcome(of attack: Attack, disabling check: GiftWrapCheck?) async -> String {
        await GiftWrapCheck.$disabled.withValue(check.map { [$0] } ?? []) {
            do { return try await attack.run() } catch { return "\(error)" }
        }
    }
}
