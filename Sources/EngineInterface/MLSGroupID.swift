/// An engine's handle for one MLS group (RFC 9420 `group_id`, opaque; MDK uses 16 random bytes).
/// It never appears on the wire: relays see only the Marmot `nostr_group_id` in the `h` tag.
package struct MLSGroupID: Hashable, Sendable, CustomStringConvertible {
    /// Lower-case hex of the group id bytes.
    package let hex: String

    package init(hex: String) { self.hex = hex.lowercased() }
    package var description: String { hex }
}
