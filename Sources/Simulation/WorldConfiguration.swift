import DeterministicScheduler
import EngineInterface
import GroupCore
import InMemoryRelay

/// The shape of a world: its seed, its clock's Unix epoch, its relays, and link latency.
package struct WorldConfiguration: Sendable {
    /// One relay of the world and its role.
    package struct RelaySpec: Hashable, Sendable {
        package var name: String
        package var role: RelayRole
        /// The relay's rules (its role is kept in step with `role`).
        package var policy: RelayPolicy
        /// Whether the relay is down when the world starts.
        package var startsDown: Bool
        package init(_ name: String, role: RelayRole, policy: RelayPolicy? = nil, startsDown: Bool = false) {
            self.name = name
            self.role = role
            var policy = policy ?? RelayPolicy()
            policy.role = role
            self.policy = policy
            self.startsDown = startsDown
        }
    }

    package var seed: UInt64
    /// Unix time of virtual instant zero. The default (2023-11-14) keeps deterministic runs
    /// independent of the machine's clock. An MDK driver without the world shim stamps events from
    /// the wall clock; worlds with such a driver (some tests) pass the wall-clock time at creation
    /// (read by the test, never by this module) so that both sources of timestamps agree.
    package var epochUnixSeconds: UInt64
    package var relays: [RelaySpec]
    package var latency: VirtualDuration
    /// Extra latency per frame, drawn from the world's seeded network stream, up to this much.
    package var jitter: VirtualDuration
    /// Whether members persist their state (core snapshot after every input, engine store) so that
    /// they can be restarted (World+Restart.swift). Off, runs keep their speed and write nothing.
    package var persistent = false

    package init(
        seed: UInt64,
        epochUnixSeconds: UInt64 = 1_700_000_000,
        relays: [RelaySpec] = WorldConfiguration.standardRelays,
        latency: VirtualDuration = .milliseconds(20),
        jitter: VirtualDuration = .zero
    ) {
        self.jitter = jitter
        self.seed = seed
        self.epochUnixSeconds = epochUnixSeconds
        self.relays = relays
        self.latency = latency
    }

    /// One relay per role: discovery (profiles, relay lists), key packages, inboxes, groups.
    package static let standardRelays: [RelaySpec] = [
        RelaySpec("discovery", role: .general), RelaySpec("keypackages", role: .keyPackage),
        RelaySpec("inbox", role: .inbox), RelaySpec("group", role: .group),
    ]

    /// The URL a relay named `name` has in this world (no trailing slash: MDK normalises group
    /// relay URLs that way, and the world maps URLs back to names).
    package static func url(of name: String) -> String { "wss://\(name).relay.test" }
}

/// Which relays (by name) a member uses for each role, and how it behaves.
package struct MemberOptions: Sendable {
    package var profileName: String?
    /// The kind-0 profile's picture URL (none by default).
    package var profilePicture: String?
    package var discoveryRelays: [String]
    package var keyPackageRelays: [String]
    package var inboxRelays: [String]
    package var groupRelays: [String]
    /// Timeouts and key-package publishing, handed to the member's core as they are.
    package var behaviour: CoreConfiguration.Behaviour
    /// How the channel from the core to its UI host misbehaves (none: in order and whole).
    package var updateDelivery: [UpdatePerturbation] = []
    /// The host's rules: the documented ones, or a broken host (test seam for the oracle's twin).
    package var hostRules: UpdateHostRules = .documented
    /// The relays' event limits the member's app read from their NIP-11 documents; nil: what the
    /// world's relays declare (an empty table models an app that never reads them).
    package var relayEventLimits: [String: Int]?
    /// The Marmot profile the member's engine speaks, handed to the engine factory
    /// (`EngineContext.profile`). Not to be confused with `profileName`, the kind-0 profile's name.
    package var marmotProfile: MarmotProfile = .legacy
    /// Engine test knob handed to the engine factory (`EngineContext.retainedEventIDs`); nil: none.
    package var retainedEventIDs: Int?

    package init(
        profileName: String? = nil,
        discoveryRelays: [String] = ["discovery"],
        keyPackageRelays: [String] = ["keypackages"],
        inboxRelays: [String] = ["inbox"],
        groupRelays: [String] = ["group"],
        behaviour: CoreConfiguration.Behaviour = CoreConfiguration.Behaviour()
    ) {
        self.profileName = profileName
        self.discoveryRelays = discoveryRelays
        self.keyPackageRelays = keyPackageRelays
        self.inboxRelays = inboxRelays
        self.groupRelays = groupRelays
        self.behaviour = behaviour
    }
}
