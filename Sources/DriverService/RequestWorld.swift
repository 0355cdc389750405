import DeterministicScheduler
import Synchronization

/// The world as one served instance sees it: the instant and the 32-byte seed of the request being
/// served (docs/driver-protocol.md, "Determinism"). The served engine's clock reads the instant and
/// its generator restarts from the seed at every request, so two driver processes given the same
/// requests produce the same bytes, whatever else they served before.
package final class RequestWorld: Sendable {
    private struct State {
        var unixTime: UInt64 = 0
        var generator = SeededGenerator(rawState: (1, 0, 0, 0))
    }

    private let state = Mutex(State())

    package init() {}

    /// Sets the instant and restarts the stream from `seed` (32 bytes; read-only queries carry
    /// none and get 32 zero bytes, as the MDK driver does).
    func begin(unixTime: UInt64, seed: [UInt8]) {
        let words = (0..<4).map { index in
            seed[(index * 8)..<(index * 8 + 8)].reversed().reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        }
        state.withLock { state in
            state.unixTime = unixTime
            state.generator = SeededGenerator(rawState: (words[0], words[1], words[2], words[3]))
        }
    }

    /// The engine's clock: the request's instant.
    package var clock: @Sendable () -> UInt64 {
        { [self] in now() }
    }

    private func now() -> UInt64 { state.withLock { $0.unixTime } }

    /// The engine's only randomness: the request's stream.
    package var generator: RequestGenerator { RequestGenerator(world: self) }

    fileprivate func next() -> UInt64 { state.withLock { $0.generator.next() } }
}

/// Draws from a ``RequestWorld``'s current stream.
package struct RequestGenerator: RandomNumberGenerator, Sendable {
    let world: RequestWorld
    package mutating func next() -> UInt64 { world.next() }
}
