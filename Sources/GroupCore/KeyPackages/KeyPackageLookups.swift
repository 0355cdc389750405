import Nostr

/// Key-package lookups under way, and who wrote the key packages they found.
struct KeyPackageLookups: Sendable {
    var fetches: [UInt64: KeyPackageFetch] = [:]
    /// Key-package subscription id → (fetch, invitee, relay).
    var subscriptions: [String: (fetch: UInt64, peer: PublicKey, relay: String)] = [:]
    /// Key-package event id → author, to match welcome rumors (their `e` tag) to invitees.
    var keyPackageAuthors: [String: PublicKey] = [:]
    /// Our own key-package events: event id → KeyPackageRef (hex), as published, to check which
    /// key package a Welcome names (issue 30, N12).
    var own: [String: String] = [:]
}
