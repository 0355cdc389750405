import DeterministicScheduler
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
}

/// The world's time as engines read it: the world sets it before every input it feeds a core, so
/// an engine called during that input sees the same instant as the core.
final class WorldClock: Sendable {
    private let seconds = Atomic<UInt64>(0)

    func set(_ value: UInt64) { seconds.store(value, ordering: .relaxed) }

    var reader: @Sendable () -> UInt64 { { [self] in seconds.load(ordering: .relaxed) } }
}
