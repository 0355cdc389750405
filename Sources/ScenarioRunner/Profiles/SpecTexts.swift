// Which text, of which version or date, a clause's spec names under a profile: the certification
// report prints it beside the clauses, so that "MIP-03 Commit Messages" says which MIP-03.
import EngineInterface

package enum SpecTexts {
    /// The spec documents clauses name, longest prefix first where one contains another.
    static let documents = [
        "transports/nostr.md", "RFC 9420", "Marmot app", "GroupCore", "marmot-conform", "MIP-00", "MIP-01", "MIP-02", "MIP-03", "NIP-",
    ]

    /// The document a clause citation (`MIP-03 Commit Messages`, `RFC 9420 §12.4`) names, if known.
    package static func document(of citation: String) -> String? {
        guard let prefix = documents.first(where: { citation.hasPrefix($0) }) else { return nil }
        guard prefix == "NIP-" else { return prefix }
        return String(citation.prefix { $0 != " " })
    }

    /// The text and version or date `document` stands for under `profile`.
    package static func version(of document: String, under profile: MarmotProfile) -> String {
        switch document {
        case "RFC 9420": return "RFC 9420, The Messaging Layer Security (MLS) Protocol, July 2023"
        case "transports/nostr.md": return "marmot-protocol/marmot transports/nostr.md, adopted (read 2026-11-26 at 27c1f50)"
        case "GroupCore", "Marmot app": return "this repository's app rules (docs/group-core.md), not a Marmot spec"
        case "marmot-conform": return "this tool's own invariants (docs/oracles.md, docs/report-format.md)"
        case _ where document.hasPrefix("NIP-"): return "nostr-protocol/nips \(document.dropFirst(4)).md, master as of 2026-11"
        case _ where document.hasPrefix("MIP-"):
            let file = "marmot-protocol/marmot \(document.dropFirst(4)).md"
            return profile == .legacy
                ? "\(file) as MDK 0.8.0 implements it"
                : "\(file), pre-adoption text; its rules are restated in the adopted protocol-core/ and transports/ documents (read 2026-11-26)"
        default: return "unknown"
        }
    }
}
