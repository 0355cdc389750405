// The simulation's only source of randomness. One 64-bit seed fixes a whole run.
//
// Algorithm: xoshiro256** (Blackman & Vigna, 2018), state filled from the seed by SplitMix64 as
// its authors recommend. Child streams are derived from the root seed and a label, not from the
// parent's current state, so adding a draw in one component never shifts another component's
// stream.

/// A deterministic, seedable random number generator (xoshiro256**) with labelled child streams.
package struct SeededGenerator: RandomNumberGenerator, Hashable, Sendable {
    /// The seed this stream was created from.
    package let seed: UInt64
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A stream whose state is expanded from `seed` with SplitMix64.
    package init(seed: UInt64) {
        self.seed = seed
        var mixer = SplitMix64(state: seed)
        state = (mixer.next(), mixer.next(), mixer.next(), mixer.next())
        // The all-zero state is the one fixed point of xoshiro; SplitMix64 cannot produce four
        // zeros in a row, but keep the guarantee explicit.
        if state == (0, 0, 0, 0) { state.0 = 1 }
    }

    /// A stream with the exact 256-bit state given, for checking against reference outputs.
    package init(rawState: (UInt64, UInt64, UInt64, UInt64)) {
        seed = 0
        state = rawState == (0, 0, 0, 0) ? (1, 0, 0, 0) : rawState
    }

    package mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotateLeft(state.3, 45)
        return result
    }

    /// An independent stream for the component named `label` (e.g. `"relay/group-1"`).
    ///
    /// The child's seed is SplitMix64 applied to the root seed mixed with the FNV-1a 64 hash of the
    /// label, so the same (seed, label) always yields the same stream.
    package func child(_ label: String) -> SeededGenerator {
        var mixer = SplitMix64(state: seed ^ FNV1a64.hash(Array(label.utf8)))
        return SeededGenerator(seed: mixer.next())
    }

    package static func == (lhs: SeededGenerator, rhs: SeededGenerator) -> Bool {
        lhs.seed == rhs.seed && lhs.state == rhs.state
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(seed)
        hasher.combine(state.0)
        hasher.combine(state.1)
        hasher.combine(state.2)
        hasher.combine(state.3)
    }
}

/// SplitMix64 (Steele, Lea & Flood, 2014): used to expand seeds, never as the simulation stream.
package struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    private var state: UInt64

    /// A SplitMix64 stream starting from `state`.
    package init(state: UInt64) { self.state = state }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@inline(__always)
private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
}
