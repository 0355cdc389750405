// The one error type of the MLS module.
//
// Every failure (malformed bytes, a bad signature, a rule of RFC 9420 broken by a peer) is an
// `MLSError`: a stable `code` that tests assert on, plus a human `reason`. Codes are declared next
// to the feature that raises them, in `extension MLSError.Code` blocks.
import ErrorCodes
import TLSCodec

/// An error raised while decoding, validating or processing MLS data.
public typealias MLSError = ModuleError<MLSErrorDomain>

/// Types the codes of `MLSError` (codes of other modules cannot be compared with them).
public enum MLSErrorDomain {}

extension MLSError {
    /// Wraps a codec failure so callers see one error type.
    public init(_ codec: TLSCodecError) {
        self.init(.malformed, codec.description)
    }
}

extension MLSError.Code {
    /// Bytes that do not decode as the expected structure (the codec's reason is kept).
    public static let malformed = Self("mls.malformed")
    /// A cipher suite this implementation does not support.
    public static let unsupportedCipherSuite = Self("mls.unsupportedCipherSuite")
    /// A protocol version other than mls10 in a message, KeyPackage or GroupContext.
    public static let unsupportedVersion = Self("mls.unsupportedVersion")
}

/// Decodes `T` from bytes that must span the value exactly, reporting failures as `MLSError`.
func decodeExactly<T: TLSDecodable>(_: T.Type, from bytes: some Collection<UInt8>) throws(MLSError) -> T {
    do { return try T(tlsBytes: bytes) } catch { throw MLSError(error) }
}

/// Serializes `value`, reporting an oversized vector as `MLSError`.
func serialize(_ value: some TLSEncodable) throws(MLSError) -> [UInt8] {
    do { return try value.tlsSerialized() } catch { throw MLSError(error) }
}
