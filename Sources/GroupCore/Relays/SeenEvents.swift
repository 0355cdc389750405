// The ids of events the core has handled, so that a copy (the same event from a second relay, or
// served again by a catch-up) is not handled twice. Bounded, as the engine's own memory of wrapper
// ids is (docs/receiver-checks.md, N10): the ids are untrusted input, and a relay or a member that
// sends ever new events would otherwise grow every member's state, and its saved snapshot, without
// end (docs/group-core.md, "Bounds on what the core keeps").
//
// The id seen longest ago goes first. Copies come close together (every relay of a group forwards
// one event within moments; a catch-up serves what was published while we were away), so the ids
// most recently seen are the ones a copy is most likely to match. Forgetting an id only loses
// the short cut: an evicted event handed to us again meets the checks that refused or consumed it
// the first time. A kind-445 event goes to the engine, which answers from its own bounded memory
// (`duplicate`) or from the MLS state (a generation's key is used once, a commit of an epoch left
// behind is refused), and the core records that refusal; a gift-wrapped Welcome meets the engine's
// refusal of a Welcome already used; a link answer, channel control or join request is answered
// by the same rule as the first time (SimulationTests `SeenEventRetentionTests`).

/// The ids of handled events, oldest first, at most `cap` of them.
struct SeenEvents: Sendable {
    /// How many ids the core keeps: four groups' worth of the engine's own memory of wrapper ids
    /// (4,096 per group), so that a copy within any one busy group's recent traffic is still a short
    /// cut; about 1.1 MB in the saved state (64 hex digits and JSON quoting per id).
    static let retained = 16_384

    private var ids: Set<String> = []
    /// The ids in the order they were first seen; those before `head` are forgotten.
    private var order: [String] = []
    private var head = 0

    init() {}

    /// The ids of a saved state, oldest first (a state written before the cap holds them in hash
    /// order, read as their age: they all predate anything seen after the restart); repeats are
    /// read once, and only the newest `cap` are kept.
    init(oldestFirst saved: [String], cap: Int) {
        for id in saved { _ = insert(id, cap: Int.max) }
        evict(to: cap)
    }

    /// The ids kept, oldest first (what the saved state holds).
    var oldestFirst: [String] { Array(order[head...]) }

    var count: Int { ids.count }

    func contains(_ id: String) -> Bool { ids.contains(id) }

    /// Remembers `id`; false when it was remembered already (the event is a copy). Beyond `cap`
    /// the oldest ids are forgotten.
    mutating func insert(_ id: String, cap: Int) -> Bool {
        guard ids.insert(id).inserted else { return false }
        order.append(id)
        evict(to: cap)
        return true
    }

    private mutating func evict(to cap: Int) {
        while ids.count > max(cap, 0), head < order.count {
            ids.remove(order[head])
            head += 1
        }
        // The forgotten prefix is dropped once it is the larger part, so that the array stays
        // within twice the cap and each insert costs amortized constant time.
        if head > 0, head * 2 >= order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
