// The untimed parts of `bench engines` that are not engine work: Nostr identities, signing key
// packages, and the gift wrap a welcome arrives in (only its id reaches the engine). Seeded, so a
// bench does the same work every time.
import DeterministicScheduler
import Nostr

struct BenchKeys {
    var generator: SeededGenerator

    mutating func keypair() -> Keypair { Keypair.generate(using: &generator) }

    mutating func sign(_ event: UnsignedEvent, by keypair: Keypair) throws -> Event {
        try event.signed(with: keypair, using: &generator)
    }

    /// An id for the gift wrap a welcome arrived in (the engine only records it). Not a real NIP-59
    /// wrap: a 100-member group's welcome rumor is larger than NIP-44's 65,535-byte plaintext limit
    /// (docs/findings/welcome-size-limits.md; GroupCore splits such invitations), and wrapping is not
    /// engine work. A kind-1059 event addressed to the joiner, signed by the sender, naming the rumor.
    mutating func wrapperID(_ rumor: UnsignedEvent, from sender: BenchMember, to recipient: BenchMember, now: UInt64) throws -> EventID {
        let envelope = UnsignedEvent(
            pubkey: sender.pubkey, createdAt: now, kind: .giftWrap, tags: [["p", recipient.pubkey.hex]], content: rumor.id.hex)
        return try envelope.signed(with: sender.keypair, using: &generator).id
    }

    /// 32 bytes for an engine's storage encryption.
    mutating func storageKey() -> [UInt8] { (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) } }
}

/// Wall-clock seconds of one operation (the CLI may read the clock; engines never do).
enum Timed {
    static func run<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let value = try await body()
        return (value, Stopwatch.seconds(ContinuousClock.now - start))
    }
}
