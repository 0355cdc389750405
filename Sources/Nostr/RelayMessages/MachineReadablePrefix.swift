// NIP-01: OK and CLOSED messages carry "a single-word prefix followed by a `:` and then a
// human-readable message". The standard prefixes are listed by NIP-01; `auth-required` comes
// from NIP-42. Marmot clients decide retry vs give-up from the prefix, so it is typed.

/// The machine-readable first word of an `OK` or `CLOSED` message.
public struct MachineReadablePrefix: Hashable, Sendable, CustomStringConvertible {
    /// The word before the colon, e.g. `invalid`.
    public let word: String

    /// A prefix with the given word (non-standard words are allowed on the wire).
    public init(_ word: String) { self.word = word }

    public static let duplicate = Self("duplicate")
    public static let pow = Self("pow")
    public static let blocked = Self("blocked")
    public static let rateLimited = Self("rate-limited")
    public static let invalid = Self("invalid")
    public static let restricted = Self("restricted")
    public static let mute = Self("mute")
    public static let error = Self("error")
    public static let authRequired = Self("auth-required")

    /// `"<word>: <text>"`.
    public func message(_ text: String) -> String { "\(word): \(text)" }

    /// The prefix of `message`, or nil when it has no `word:` start (e.g. the empty message).
    public init?(of message: String) {
        guard let colon = message.firstIndex(of: ":") else { return nil }
        let word = message[..<colon]
        guard !word.isEmpty, !word.contains(" ") else { return nil }
        self.word = String(word)
    }

    public var description: String { word }
}
