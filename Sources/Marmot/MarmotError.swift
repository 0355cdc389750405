// The one error type of the Marmot module: a stable code (declared next to the feature that raises it)
// and a human reason. Equality is by code, so tests assert on codes, never on wording.
import ErrorCodes
import MLS
import Nostr
import TLSCodec

/// An error raised while building, decoding or validating Marmot (MIP-00…03) data.
package typealias MarmotError = ModuleError<MarmotErrorDomain>

/// Types the codes of `MarmotError` (codes of other modules cannot be compared with them).
package enum MarmotErrorDomain {}

extension MarmotError.Code {
    /// An MLS structure failed to decode or validate; the MLS error is kept in the reason.
    package static let mls = Self("marmot.mls")
    /// A Nostr structure (event, rumor JSON, key) failed; the Nostr error is kept in the reason.
    package static let nostr = Self("marmot.nostr")
}

extension MarmotError {
    /// Wraps a lower-layer failure so callers of Marmot see one error type.
    init(_ error: MLSError) { self.init(.mls, error.description) }
    init(_ error: NostrError) { self.init(.nostr, error.description) }
}

/// Runs an MLS operation, reporting its failure as a `MarmotError`.
func mls<T>(_ body: () throws(MLSError) -> T) throws(MarmotError) -> T {
    do { return try body() } catch { throw MarmotError(error) }
}

/// Runs a Nostr operation, reporting its failure as a `MarmotError`.
func nostr<T>(_ body: () throws(NostrError) -> T) throws(MarmotError) -> T {
    do { return try body() } catch { throw MarmotError(error) }
}

/// Serializes an MLS wire structure, reporting an oversized vector as a `MarmotError`.
package func tlsEncoded(_ value: some TLSEncodable) throws(MarmotError) -> [UInt8] {
    do { return try value.tlsSerialized() } catch { throw MarmotError(.mls, error.description) }
}
