// Spec profiles: the version of the Marmot specification an engine claims to implement. MDK 0.8.0
// implements the MIPs as they stood at its release (MIP-03 orders competing commits by created_at,
// then event id); the adopted specification (marmot-protocol/marmot: protocol-core/convergence.md,
// transports/nostr.md) no longer lets transport metadata choose group state and states kind-445
// signature verification as a MUST of its own. A check that enforces one of the rules where the
// two differ carries a `ProfiledRule`; the run's profile decides how that check is judged.

/// A version of the specification an engine is judged by (`run --profile`).
package enum SpecProfile: String, CaseIterable, Sendable, Codable {
    /// The MIPs as MDK 0.8.0 implements them: today's verdicts.
    case mdk080 = "mdk-0.8.0"
    /// The adopted Marmot specification (protocol-core and transports documents).
    case marmotCurrent = "marmot-current"

    /// The profile runs use unless told otherwise: the one that keeps the verdicts of the gate.
    package static let standard = SpecProfile.mdk080

    /// The specification text the profile stands for, with its version or date.
    package var text: String {
        switch self {
        case .mdk080:
            "Marmot MIP-00…03 as implemented by MDK 0.8.0 (marmot-protocol/marmot 00.md–03.md; commit races by created_at, then id)"
        case .marmotCurrent:
            "the adopted Marmot specification, marmot-protocol/marmot protocol-core/ and transports/nostr.md as read on 2026-11-26 (nostr.md at 27c1f50)"
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
    package func status(under profile: SpecProfile) -> RuleStatus {
        switch (self, profile) {
        case (.commitRaceByTimestamp, .mdk080):
            .holds(Clause("MIP-03", "Commit Message Race Conditions"))
        case (.commitRaceByTimestamp, .marmotCurrent):
            .notHeld("the adopted spec lets no transport timestamp or event id choose group state "
                + "(transports/nostr.md, \"Group message delivery\"; branch selection is protocol-core/convergence.md's)")
        case (.groupEventSignature, .mdk080):
            // MIP-03 of that time is silent; NIP-01's signature rule covers every event.
            .holds(Clause("NIP-01", "Events and signatures"))
        case (.groupEventSignature, .marmotCurrent):
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
