// What distinguishes one interleaving of a run from another: the order the seed chose for each
// parallel block, and the order in which members' group events (kind 445) reached the relays,
// which per-link jitter varies from seed to seed. MIP-03 races are decided by that order.
import DeterministicScheduler

enum Interleaving {
    /// `a,b|…` (parallel orders) then ` / ` and the publishers of kind-445 events in arrival order
    /// at relays (one letter per member, in label order: `a`, `b`, …), or nil when neither exists.
    static func describe(orders: [String], trace: Trace, members: [String]) -> String? {
        let letters = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1, Self.letter($0)) })
        var arrivals = ""
        for entry in trace.entries where entry.category == "arrive" && entry.detail.hasPrefix("EVENT") && entry.detail.hasSuffix("kind 445")
        {
            guard let arrow = entry.subject.range(of: "->"), let letter = letters[String(entry.subject[..<arrow.lowerBound])] else {
                continue
            }
            arrivals += letter
        }
        guard !orders.isEmpty || !arrivals.isEmpty else { return nil }
        return orders.joined(separator: "|") + " / " + arrivals
    }

    private static func letter(_ index: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        return index < alphabet.count ? String(alphabet[index]) : "#\(index)"
    }
}
