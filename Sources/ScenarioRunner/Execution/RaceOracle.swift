// The MIP-03 race oracle: for a `parallel` block of renames, the commit that every member must
// end on is computable from what the members published, so the check does not trust any engine's
// choice. MIP-03 "Commit Message Race Conditions": the earliest created_at wins, ties go to the
// lexicographically smallest id.
import Nostr
import Simulation

/// The renames of one `parallel` block and the commit each published.
struct RenameRace: Sendable {
    struct Entrant: Sendable {
        let member: String
        let name: String
        let commit: Event
    }

    let entrants: [Entrant]

    static let clause = Clause("MIP-03", "Commit Message Race Conditions")

    /// MIP-03 order of the entrants' commits: earliest `created_at`, then smallest id.
    static func precedes(_ a: Entrant, _ b: Entrant) -> Bool {
        (a.commit.createdAt, a.commit.id) < (b.commit.createdAt, b.commit.id)
    }

    /// The entrant MIP-03 picks.
    var winner: Entrant? { entrants.min(by: Self.precedes) }

    /// Every member that holds the raced group, removed or not, must show the winner's name.
    func check(_ title: String, in world: World) async -> CheckResult {
        guard let winner, entrants.count > 1 else {
            return CheckResult(
                check: title, clause: Self.clause, verdict: .fail,
                detail: "fewer than two renames of the block published a commit (\(entrants.map(\.member)))")
        }
        let chatID = winner.commit.firstTagValue("h") ?? ""
        var wrong: [String] = []
        var seen: [String] = []
        for label in world.labels {
            guard let chat = await world.member(label)?.core.state().chatList.first(where: { $0.chatID == chatID }),
                !chat.isRemoved
            else { continue }
            seen.append("\(label): \(chat.groupName)")
            if chat.groupName != winner.name { wrong.append(label) }
        }
        let order = entrants.sorted(by: Self.precedes)
            .map { "\($0.member) \"\($0.name)\" (created_at \($0.commit.createdAt), id \($0.commit.id.hex.prefix(8)))" }
        return CheckResult(
            check: title, clause: Self.clause, verdict: wrong.isEmpty ? .pass : .fail,
            expected: "every member on \"\(winner.name)\", the commit of \(winner.member)",
            observed: seen.joined(separator: "; "),
            detail: "MIP-03 order: \(order.joined(separator: " < "))"
                + (wrong.isEmpty ? "" : "; on another commit: \(wrong.joined(separator: ", "))"), rule: .commitRaceByTimestamp)
    }
}
