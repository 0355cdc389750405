// Load-time checks of a `fault` step's selector: a selector that can never match would make the
// fault silently do nothing, and the scenario would pass without testing what it says.
//
// - `author` with `kind: 445` or `kind: 1059`: group events (MIP-03) and gift wraps (NIP-59) are
//   signed with one-time keys, never a member's own, so no such event has a member as author.
// - Fields a fault of that kind ignores (`kind` on a `partition`, `for` on a `drop`, …): the
//   author meant something the runner would not do.

enum FaultFields {
    /// Kinds whose events are never signed with a member's key.
    static let oneTimeKeyKinds: [Int64: String] = [
        445: "group events (kind 445) are signed with one-time keys (MIP-03)",
        1059: "gift wraps (kind 1059) are signed with one-time keys (NIP-59)",
    ]

    /// The fields each fault kind reads, besides `apply`.
    static func fields(of kind: FaultKind) -> Set<String> {
        let selector: Set<String> = ["relay", "member", "kind", "author", "nth", "direction"]
        switch kind {
        case .down, .up: return ["relay"]
        case .partition, .heal: return ["member"]
        case .tamper: return ["member", "kind", "author"]
        case .blobTamper, .blobLose: return []
        case .delay: return selector.union(["for"])
        case .reject: return selector.union(["prefix"])
        case .withholdOK: return selector.subtracting(["direction"])
        case .drop, .duplicate, .reorder, .hold: return selector
        case .restart: return selector.union(["for"])
        case .eclipse: return selector.subtracting(["direction"])
        case .stale: return ["relay", "member", "kind"]
        }
    }

    static func checkSelector(_ node: YAMLNode) throws(ScenarioError) {
        guard case .mapping(let entries) = node.value,
            let applyText = entries.first(where: { $0.key == "apply" }).flatMap({ entry -> String? in
                if case .scalar(let text, _) = entry.value.value { text } else { nil }
            }),
            let kind = FaultKind(rawValue: applyText)
        else { return }
        let used = fields(of: kind)
        for entry in entries where entry.key != "apply" && !used.contains(entry.key) {
            throw ScenarioError(
                .invalidValue, at: entry.keyLocation,
                "'\(entry.key)' has no effect on a '\(kind.rawValue)' fault (it reads: \(used.sorted().joined(separator: ", ")))")
        }
        guard let author = entries.first(where: { $0.key == "author" }),
            let kindEntry = entries.first(where: { $0.key == "kind" }),
            case .scalar(let kindText, false) = kindEntry.value.value, let number = Int64(kindText),
            let why = oneTimeKeyKinds[number]
        else { return }
        throw ScenarioError(
            .invalidValue, at: author.keyLocation,
            "this selector can never match: \(why), never with a member's key; drop 'author' and select by kind, member or relay")
    }
}
