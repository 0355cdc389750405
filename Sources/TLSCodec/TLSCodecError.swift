// The one error type of the TLSCodec module.
//
// Decoders of untrusted bytes report failures as a `TLSCodecError`: a stable `code` that tests
// assert on, plus a human `reason`. Higher layers (MLS) declare their own decoding codes in
// `extension TLSCodecError.Code` blocks next to the structs that raise them.
import ErrorCodes

/// An error raised while reading or writing the TLS presentation language.
public typealias TLSCodecError = ModuleError<TLSCodecErrorDomain>

/// Types the codes of `TLSCodecError` (codes of other modules cannot be compared with them).
public enum TLSCodecErrorDomain {}

extension TLSCodecError.Code {
    /// The input ended before a value was complete.
    public static let truncated = Self("tls.truncated")
    /// Bytes remained after the top-level value.
    public static let trailingBytes = Self("tls.trailingBytes")
    /// A variable-length integer used more bytes than needed (RFC 9420 §2.1.2).
    public static let nonMinimalVarint = Self("tls.nonMinimalVarint")
    /// A variable-length integer started with the reserved `0b11` prefix.
    public static let invalidVarintPrefix = Self("tls.invalidVarintPrefix")
    /// A length does not fit the 30 bits a variable-length integer can carry.
    public static let lengthTooLarge = Self("tls.lengthTooLarge")
    /// An optional's presence byte was neither 0 nor 1.
    public static let invalidOptional = Self("tls.invalidOptional")
    /// A field held a value its type does not allow (an unknown enum value, a bad fixed size).
    public static let invalidValue = Self("tls.invalidValue")
}
