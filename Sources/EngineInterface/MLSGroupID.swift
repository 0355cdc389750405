/// An engine's handle for one MLS group (RFC 9420 `group_id`, opaque; MDK uses 16 random bytes).
/// It never appears on the wire: relays see only the Marmot `nostr_group_id` in the `h` tag.
public struct MLSGroupID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Lower-case hex of the group id bytes.
    public let hex: String

    public init(hex: String) { self.hex = hex.lowercased() }
    public var description: String { hex }
}
