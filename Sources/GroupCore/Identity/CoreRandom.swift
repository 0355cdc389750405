/// The core's randomness: whatever generator the host injects (the simulation passes a seeded
/// child stream), boxed so that the actor is not generic. The core never touches the OS RNG.
struct CoreRandom: RandomNumberGenerator, Sendable {
    var base: any RandomNumberGenerator & Sendable

    mutating func next() -> UInt64 { base.next() }
}
