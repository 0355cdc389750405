import Nostr

/// A key-package fetch for one action: every invitee looked up in parallel on its key-package relays.
struct KeyPackageFetch: Sendable, Codable {
    enum Purpose: Sendable, Codable {
        case create(name: String, description: String, policy: PartialFailurePolicy, admins: [PublicKey])
        case add(chatID: String, policy: PartialFailurePolicy = .proceed)
        case channel(ChannelDraft)
        /// A pending decision's failed invitees, looked up again.
        case retry(decisionID: String)
    }

    /// One invitee's lookup.
    struct Lookup: Sendable, Codable {
        var outstanding: Set<String>
        var unreachable: Set<String> = []
        /// The newest usable key package so far.
        var best: Event?
        /// The first reason an offered key package was unusable.
        var problem: Problem?
        var outcome: Outcome?
    }

    /// Why an offered key package was unusable.
    struct Problem: Sendable, Codable {
        let reason: FailedPeer.Reason
        let detail: String
    }

    enum Outcome: Sendable, Codable {
        case found(Event)
        case failed(FailedPeer.Reason, String)
    }

    let id: UInt64
    let purpose: Purpose
    /// Invitees in the order the action named them (welcome order).
    let peers: [PublicKey]
    var lookups: [PublicKey: Lookup]
    let timer: TimerToken

    var isComplete: Bool { lookups.values.allSatisfy { $0.outcome != nil } }
}
