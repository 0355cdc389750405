// NIP-01: "<subscription_id> is an arbitrary, non-empty string of max length 64 chars. It
// represents a subscription per connection. Relays MUST manage <subscription_id>s independently
// for each WebSocket connection."

/// The client-chosen name of a subscription, scoped to one connection.
///
/// Any string can be carried (relays echo what they were sent, e.g. in `CLOSED`); use
/// `validate()` to check the NIP-01 rule on input from clients.
public struct SubscriptionID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// NIP-01 upper bound on the length, in characters.
    public static let maximumLength = 64

    /// The subscription id as sent on the wire.
    public var rawValue: String

    /// Wraps `rawValue` without checking it.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    /// Checks NIP-01's rule: non-empty, at most 64 characters.
    /// - Throws: `NostrError` `.badSubscriptionID`.
    public func validate() throws(NostrError) {
        guard !rawValue.isEmpty else {
            throw NostrError(.badSubscriptionID, "subscription id must not be empty")
        }
        guard rawValue.count <= Self.maximumLength else {
            throw NostrError(.badSubscriptionID, "subscription id is longer than \(Self.maximumLength) characters")
        }
    }

    public var description: String { rawValue }
    public static func < (lhs: SubscriptionID, rhs: SubscriptionID) -> Bool { lhs.rawValue < rhs.rawValue }
}
