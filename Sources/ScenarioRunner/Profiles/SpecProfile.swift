// Profiles: the version of the Marmot specification an engine is judged by. MDK 0.8.0
// implements the MIPs as they stood at its release (MIP-03 orders competing commits by created_at,
// then event id); the adopted specification (marmot-protocol/marmot: protocol-core/convergence.md,
// transports/nostr.md) no longer lets transport metadata choose group state and states kind-445
// signature verification as a MUST of its own. A check that enforces one of the rules where the
// two differ carries a `ProfiledRule`; the run's profile decides how that check is judged.

// The two profiles are EngineInterface's `MarmotProfile` (issue 28): the one a member's engine speaks
// is the one its checks are judged by. The rule toggles `--profile mdk-0.8.0|marmot-current` of
// earlier versions folded into them: `legacy` judges as `mdk-0.8.0` did, `current` as
// `marmot-current` did; the old names are still accepted, with a note (`MarmotProfile(named:)`).
import EngineInterface

extension MarmotProfile {
    /// The profile runs use unless told otherwise: the one that keeps the verdicts of the gate.
    package static let standard = MarmotProfile.legacy

    /// The names of earlier versions (`--profile mdk-0.8.0|marmot-current`), each with the profile
    /// it became.
    package static let oldNames: [String: MarmotProfile] = ["mdk-0.8.0": .legacy, "marmot-current": .current]

    /// A profile by its name or by its old name (`oldNameNote` says which it became).
    package init?(named name: String) {
        guard let profile = MarmotProfile(rawValue: name) ?? Self.oldNames[name] else { return nil }
        self = profile
    }

    /// The note a caller prints when a profile was given by its old name; nil for a current name.
    package static func oldNameNote(_ name: String) -> String? {
        guard MarmotProfile(rawValue: name) == nil, let profile = oldNames[name] else { return nil }
        return "note: profile '\(name)' is now called '\(profile.rawValue)' (the rule toggles folded into the two Marmot profiles)"
    }

    /// The specification text the profile stands for, with its version or date.
    package var text: String {
        switch self {
        case .legacy:
            "Marmot MIP-00…03 as implemented by MDK 0.8.0 (marmot-protocol/marmot 00.md–03.md; commit races by created_at, then id)"
        case .current:
            "the adopted Marmot specification, marmot-protocol/marmot protocol-core/ and transports/nostr.md as read on 2026-11-26 (nostr.md at 27c1f50)"
        }
    }

    /// What evidence under this profile certifies (reports): MDK 0.8.0 speaks the legacy profile
    /// only, so no run of it says anything about the current one.
    package var certifies: String {
        switch self {
        case .legacy: "certifies the legacy profile only (MIP-00…03, MDK 0.8.0's dialect), not the adopted specification"
        case .current: "certifies the current profile (the adopted specification); MDK 0.8.0 cannot take part in it"
        }
    }
}

/// A rule where the profiles differ, named by the checks that enforce it.
package enum ProfiledRule: String, CaseIterable, Sendable, Codable {
    /// Competing commits of one epoch: the earliest `created_at` wins, ties to the smallest id.
    case commitRaceByTimestamp = "commit-race-by-created-at"
    /// A receiver verifies a kind-445 event's NIP-01 id and signature before it decrypts it.
    case groupEventSignature = "kind-445-signature"

    /// What the rule is, in a few words (reports).
    package var summary: String {
        switch self {
        case .commitRaceByTimestamp: "competing commits of one epoch: earliest created_at wins, ties to the smallest event id"
        case .groupEventSignature: "a receiver verifies a kind-445 event's id and signature before decrypting it"
        }
    }

    /// How a check enforcing this rule is judged under `profile`.
    package func status(under profile: MarmotProfile) -> RuleStatus {
        switch (self, profile) {
        case (.commitRaceByTimestamp, .legacy):
            .holds(Clause("MIP-03", "Commit Message Race Conditions"))
        case (.commitRaceByTimestamp, .current):
            .notHeld(
                "the adopted spec lets no transport timestamp or event id choose group state "
                    + "(transports/nostr.md, \"Group message delivery\"; branch selection is protocol-core/convergence.md's)")
        case (.groupEventSignature, .legacy):
            // MIP-03 of that time is silent; NIP-01's signature rule covers every event.
            .holds(Clause("NIP-01", "Events and signatures"))
        case (.groupEventSignature, .current):
            .holds(Clause("transports/nostr.md", "Group message delivery"))
        }
    }
}

/// Whether a profile holds a rule, and the clause it cites for it.
package enum RuleStatus: Equatable, Sendable {
    case holds(Clause)
    /// The profile does not hold the rule; a check enforcing it is reported (`info`), not judged.
    case notHeld(String)
}
