import Nostr

// What a relay in the simulated world is for and which optional rules it enforces. Marmot (and
// Pika) separate key-package relays (kind 10051 lists them) from group relays and inbox relays
// (kind 10050); scenarios give each relay a role and may give it a stricter or broken policy.

/// The job a relay has in a world; informational for routing and reports.
package struct RelayRole: Hashable, Sendable, CustomStringConvertible {
    /// Short name, e.g. `group`.
    package let name: String
    package init(_ name: String) { self.name = name }

    /// Serves kind 30443 / 443 key packages (listed in kind 10051).
    package static let keyPackage = Self("key-package")
    /// Carries kind 445 group events.
    package static let group = Self("group")
    /// Receives kind 1059 gift wraps such as welcomes (listed in kind 10050).
    package static let inbox = Self("inbox")
    /// No particular role.
    package static let general = Self("general")

    package var description: String { name }
}

/// Optional rules and limits of one relay.
package struct RelayPolicy: Hashable, Sendable {
    /// The relay's job in the world.
    package var role: RelayRole
    /// NIP-70: when false, every `["-"]` event is refused, even after AUTH (a relay that does not
    /// support protected events). When true, the author must have authenticated (NIP-42).
    package var acceptsProtectedEvents: Bool
    /// NIP-59: serve kind 1059 only to connections authenticated as its `p` recipient. Off by
    /// default, like rust-nostr's LocalRelay (`auth_dm`), so gift wraps are served by `#p`.
    package var giftWrapsRequireAuth: Bool
    /// Largest client frame accepted, in UTF-8 bytes.
    package var maximumFrameBytes: Int
    /// Largest event accepted, measured as its compact JSON in UTF-8 bytes (LR uses 64 KiB).
    package var maximumEventBytes: Int
    /// Open subscriptions allowed per connection.
    package var maximumSubscriptionsPerConnection: Int
    /// Filters allowed in one REQ or COUNT; each is a scan of the store, so this bounds one frame's work.
    package var maximumFiltersPerRequest: Int
    /// Stored events one REQ or COUNT may make the relay examine (summed over its filters' index
    /// candidates); a broader query is refused with CLOSED `rate-limited:`.
    package var maximumEventsScannedPerRequest: Int
    /// Results of an initial query for a filter without `limit`; nil means all.
    package var defaultLimit: Int?
    /// NIP-42: send `["AUTH", challenge]` as soon as a connection opens rather than when first needed.
    package var sendsChallengeOnConnect: Bool
    /// NIP-42: how far an AUTH event's `created_at` may be from the relay's clock, in seconds.
    package var authTimeWindow: UInt64
    /// NIP-40 says relays SHOULD drop expired events and not serve them; when false the relay
    /// stores and serves them anyway (many relays ignore NIP-40), so clients must check expiry.
    package var honoursExpiration: Bool
    /// When false the relay is hung: it keeps connections open and reads every frame but answers
    /// none (no OK, EVENT, EOSE, CLOSED or NOTICE) and stores nothing. Unlike a relay that is down,
    /// clients learn nothing from it and must give up on their own timers (a lookup's timeout).
    package var answers = true

    /// Room a client frame needs around its event: `["EVENT",` and `]` (a relay declaring an event
    /// limit takes frames that carry such events).
    package static let eventFrameOverheadBytes = 64

    /// A policy; the defaults follow NIP-01/42/70 MUSTs and rust-nostr LocalRelay's limits.
    package init(
        role: RelayRole = .general,
        acceptsProtectedEvents: Bool = true,
        giftWrapsRequireAuth: Bool = false,
        maximumFrameBytes: Int = ClientMessage.defaultMaximumBytes,
        maximumEventBytes: Int = 65_536,
        maximumSubscriptionsPerConnection: Int = 500,
        maximumFiltersPerRequest: Int = 100,
        maximumEventsScannedPerRequest: Int = 1_000_000,
        defaultLimit: Int? = nil,
        sendsChallengeOnConnect: Bool = false,
        authTimeWindow: UInt64 = 600,
        honoursExpiration: Bool = true
    ) {
        self.honoursExpiration = honoursExpiration
        self.sendsChallengeOnConnect = sendsChallengeOnConnect
        self.role = role
        self.acceptsProtectedEvents = acceptsProtectedEvents
        self.giftWrapsRequireAuth = giftWrapsRequireAuth
        self.maximumFrameBytes = maximumFrameBytes
        self.maximumEventBytes = maximumEventBytes
        self.maximumSubscriptionsPerConnection = maximumSubscriptionsPerConnection
        self.maximumFiltersPerRequest = maximumFiltersPerRequest
        self.maximumEventsScannedPerRequest = maximumEventsScannedPerRequest
        self.defaultLimit = defaultLimit
        self.authTimeWindow = authTimeWindow
    }
}
