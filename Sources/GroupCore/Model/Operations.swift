import EngineInterface
import Nostr

/// A key-package fetch for one action: every invitee looked up in parallel on its key-package relays.
struct KeyPackageFetch: Sendable {
    enum Purpose: Sendable {
        case create(name: String, description: String, policy: PartialFailurePolicy)
        case add(chatID: String)
    }

    /// One invitee's lookup.
    struct Lookup: Sendable {
        var outstanding: Set<String>
        var unreachable: Set<String> = []
        /// The newest usable key package so far.
        var best: Event?
        /// The first reason an offered key package was unusable.
        var problem: (reason: FailedPeer.Reason, detail: String)?
        var outcome: Outcome?
    }

    enum Outcome: Sendable {
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

/// A commit we published and have not merged: it waits for one accepting OK (MIP-02/03).
struct PendingCommit: Sendable {
    let chatID: String
    let eventID: String
    /// What the commit does, for notes and errors.
    let label: String
    var outstanding: Set<String>
    var refusals: [String] = []
    /// Welcome rumors and their invitees, sent only after the merge.
    let welcomes: [(rumor: UnsignedEvent, invitee: PublicKey)]
    let timer: TimerToken
}

/// Why an event we published is being watched.
enum PublishPurpose: Sendable {
    case commit(chatID: String)
    case message(chatID: String, messageID: String, outstanding: Set<String>)
}

/// What a timer was started for.
enum TimerPurpose: Sendable {
    case keyPackageFetch(UInt64)
    case commit(chatID: String, eventID: String)
    case selfUpdate(chatID: String)
    case resubscribe(url: String)
}

/// A commit the core asks its engine for.
enum CommitChange: Sendable {
    case add([Event])
    case remove([PublicKey])
    case rename(String)
    case selfUpdate

    var label: String {
        switch self {
        case .add(let keyPackages): "add \(keyPackages.count)"
        case .remove(let members): "remove \(members.count)"
        case .rename: "rename"
        case .selfUpdate: "self-update"
        }
    }
}
