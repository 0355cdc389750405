// The one error type of the Nostr module.
//
// Every decoder of untrusted input (event JSON, relay frames, bech32, NIP-44 payloads, gift
// wraps) reports failures as a `NostrError`: a stable `code` that tests and scenarios assert on,
// plus a human `reason`. Codes are declared next to the feature that raises them, in
// `extension NostrError.Code` blocks, so adding a code never touches this file.
import ErrorCodes

/// An error raised while decoding, verifying or building Nostr data.
public typealias NostrError = ModuleError<NostrErrorDomain>

/// Types the codes of `NostrError` (codes of other modules cannot be compared with them).
public enum NostrErrorDomain {}
