import DriverProtocol
import EngineInterface
import ErrorCodes
import Nostr
import Synchronization

extension EngineError.Code {
    /// The driver cannot put its engine on the world's clock and seed (its world shim is not active).
    package static let worldUnavailable = Self("world_unavailable")
}

/// The world's clock and one member's seeded stream, as a driver needs them: every request that
/// reaches the engine carries the current virtual time, and every request that may draw randomness
/// carries a fresh 32-byte seed from the member's own stream (docs/driver-protocol.md, "Determinism").
///
/// Seeds come from the member's stream, not a driver-wide one, so the bytes an instance produces
/// depend only on its own calls, never on how the world interleaves members.
package final class WorldFeed: Sendable {
    private let clock: @Sendable () -> UInt64
    private let stream: Mutex<any RandomNumberGenerator & Sendable>

    /// - Parameters:
    ///   - clock: Unix seconds of the world's virtual clock, read at each request.
    ///   - generator: the member's engine stream (seeded from the world seed and its label).
    package init(clock: @escaping @Sendable () -> UInt64, generator: some RandomNumberGenerator & Sendable) {
        self.clock = clock
        stream = Mutex(generator)
    }

    /// The request's `world` field for `method`; `instant`, when later than now, is the time the
    /// engine's clock reads for it (a message's chosen `created_at`).
    func stamp(for method: DriverMethod, at instant: UInt64? = nil) -> JSONValue {
        var fields: [String: JSONValue] = ["unix_time": JSONValue(max(instant ?? 0, clock()))]
        if !method.isReadOnlyQuery {
            let seed = stream.withLock { generator in
                (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next().littleEndian, Array.init) }
            }
            fields["seed"] = .string(seed.hexString)
        }
        return .object(fields)
    }
}

extension DriverMethod {
    /// Queries that only read an instance's state: they carry the time but draw no seed, so adding or
    /// removing an oracle's query never shifts the seeds of the calls that produce bytes.
    package var isReadOnlyQuery: Bool {
        switch self {
        case .hello, .groups, .group, .members, .admins, .relays, .epoch, .messages, .pendingWelcomes: true
        // Decryption draws nothing either (preparing an image does: its seeds and nonce).
        case .decryptGroupImage: true
        // The conformance snapshot reads state and derives nothing from randomness.
        case .protocolSnapshot: true
        default: false
        }
    }
}
