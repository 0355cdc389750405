/// The engine's one source of randomness: the generator injected at creation, boxed so an actor can
/// hold it. Every key, nonce, group id and one-time signing key comes from here, so a fixed seed
/// gives byte-identical events.
struct RandomSource: RandomNumberGenerator, Sendable {
    var base: any RandomNumberGenerator & Sendable

    mutating func next() -> UInt64 { base.next() }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}
