// The schedule-choice seam. Wherever the world picks one of several simultaneously enabled things
// (the order of a `parallel` block, which of several frames due at the same instant for the same
// relay or member goes first), a world that carries a `ScheduleChoices` asks it instead of taking
// its default. Choice 0 is always the default (the seeded order, the scheduling order), so an
// empty prescription replays exactly what the seed alone would have done in the same world.
//
// A world without one (every `run`) never reaches this code: its behaviour and its trace
// fingerprints stay what they were. See docs/explore.md.

/// One place where a run chose among several enabled alternatives.
package struct ChoicePoint: Hashable, Sendable, CustomStringConvertible {
    /// How many alternatives were enabled (always ≥ 2).
    package let options: Int
    /// The alternative taken, 0 being the default.
    package let taken: Int
    /// What was chosen among (e.g. `parallel both admins rename`, `arrive relay-a`).
    package let label: String
    /// The world's state just before the choice (see `ScheduleChoices.stateKey`): two points with
    /// the same key and the same options have the same futures.
    package let stateKey: UInt64

    package init(options: Int, taken: Int, label: String, stateKey: UInt64) {
        self.options = options
        self.taken = taken
        self.label = label
        self.stateKey = stateKey
    }

    package var description: String { "\(label): \(taken)/\(options)" }
}

/// A prescribed choice sequence to follow, and the record of every choice point met.
package struct ScheduleChoices: Sendable {
    /// The choices to take at the first choice points, in order; beyond it, the default (0).
    /// An entry out of range at its point (possible in a shrunk sequence) also means the default.
    package let prescribed: [Int]
    /// Every choice point met so far, in order.
    package private(set) var points: [ChoicePoint] = []
    /// What the driver of the world is doing now (e.g. the scenario step and parallel orders so far),
    /// mixed into every state key.
    package var context = ""
    /// Whether choices are taken now. While closed (a scenario's setup, before its first race) every
    /// choice is the default and no point is recorded.
    package var isOpen = true
    /// Per component (relay or member), a running hash of every input it was handed, with the
    /// instant: a component's state is a function of these, so equal digests mean equal state.
    private var digests: [String: UInt64] = [:]

    package init(prescribed: [Int]) { self.prescribed = prescribed }

    /// Takes the next choice among `options` alternatives (nothing is recorded when there is only one).
    package mutating func choose(among options: Int, label: String, extra: UInt64 = 0) -> Int {
        guard options > 1, isOpen else { return 0 }
        let index = points.count
        var taken = index < prescribed.count ? prescribed[index] : 0
        if taken < 0 || taken >= options { taken = 0 }
        points.append(ChoicePoint(options: options, taken: taken, label: label, stateKey: stateKey(extra: extra)))
        return taken
    }

    /// Absorbs one input handed to `component` at `microseconds`.
    package mutating func absorb(input: String, into component: String, at microseconds: UInt64) {
        var value = digests[component] ?? FNV1a64.offsetBasis
        value = FNV1a64.absorb(String(microseconds).utf8, into: value)
        value = FNV1a64.absorb([0xFF], into: value)
        value = FNV1a64.absorb(input.utf8, into: value)
        digests[component] = value
    }

    /// The state key: the context, every component's input digest (in name order: never the
    /// dictionary's order, which differs per process) and `extra` (the caller's own state, e.g.
    /// the instant and the fault rules' counters).
    package func stateKey(extra: UInt64) -> UInt64 {
        var value = FNV1a64.absorb(context.utf8, into: FNV1a64.offsetBasis)
        for name in digests.keys.sorted() {
            value = FNV1a64.absorb(name.utf8, into: value)
            value = FNV1a64.absorb(withUnsafeBytes(of: digests[name]!.littleEndian, Array.init), into: value)
        }
        return FNV1a64.absorb(withUnsafeBytes(of: extra.littleEndian, Array.init), into: value)
    }

    /// The choices taken, trailing defaults dropped: what replays this run.
    package var takenSequence: [Int] {
        var taken = points.map(\.taken)
        while taken.last == 0 { taken.removeLast() }
        return taken
    }
}
