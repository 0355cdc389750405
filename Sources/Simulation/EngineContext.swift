import DeterministicScheduler
import EngineInterface
import Nostr
import Synchronization

/// What the world hands an engine factory for one member.
package struct EngineContext: Sendable {
    /// The member's label (MDK: the instance name).
    package let label: String
    /// 32 bytes for the engine's storage encryption (MDK: the SQLCipher key).
    package let storageKey: [UInt8]
    /// The engine's own random stream, derived from the world seed and the label.
    package let generator: SeededGenerator
    /// Unix seconds of the world clock at the moment of the call.
    package let clock: @Sendable () -> UInt64
    /// A directory private to the member, the same at every start of it within one run, under the
    /// run's temporary directory and removed with the world. It exists only when `persistent`.
    package let storageDirectory: String
    /// 0 at the member's first start, 1 after its first restart, …: `generator` is derived from
    /// the label and this number, so a restarted engine never replays random bytes it used.
    package let start: Int
    /// Whether the run persists (it restarts members): an engine then keeps its state in
    /// `storageDirectory` and reopens it at the next start.
    package let persistent: Bool
    /// The Marmot profile the member speaks (its scenario's `profile:`, else the run's): the factory
    /// makes an engine instance of that profile. An engine that cannot speak it is still made; it
    /// declares the profiles it speaks, and the runner reports the scenario `unsupported`.
    package let profile: MarmotProfile
    /// The member's Nostr account key, for an engine of the current profile, whose every leaf
    /// carries an identity proof the account signs (component 0x8009); nil when the caller has none.
    package let accountKey: Keypair?
    /// The member's crash switch (restart matrix, docs/restart-matrix.md): an engine that reaches
    /// engine-internal crash points takes it; every engine call is refused once it tripped.
    package var crashSwitch: CrashSwitch?
    /// Engine test knob (scenario `retained-event-ids`, issue 30 N10): how many wrapper ids per
    /// group the engine remembers, below its product cap, so that a flood past the cap stays short.
    /// An engine without such a cap ignores it (MDK's driver has no knob); nil: the product cap.
    package var retainedEventIDs: Int?

    package init(
        label: String, storageKey: [UInt8], generator: SeededGenerator, clock: @escaping @Sendable () -> UInt64,
        storageDirectory: String = "", start: Int = 0, persistent: Bool = false, profile: MarmotProfile = .legacy,
        accountKey: Keypair? = nil, crashSwitch: CrashSwitch? = nil
    ) {
        self.crashSwitch = crashSwitch
        self.profile = profile
        self.accountKey = accountKey
        self.label = label
        self.storageKey = storageKey
        self.generator = generator
        self.clock = clock
        self.storageDirectory = storageDirectory
        self.start = start
        self.persistent = persistent
    }
}

/// The world's time as engines read it: the world sets it before every input it feeds a core, so
/// an engine called during that input sees the same instant as the core.
final class WorldClock: Sendable {
    private let seconds = Atomic<UInt64>(0)

    func set(_ value: UInt64) { seconds.store(value, ordering: .relaxed) }

    var reader: @Sendable () -> UInt64 { { [self] in seconds.load(ordering: .relaxed) } }
}
