import Nostr

/// A MIP-00 key package as an engine returns it: event content and tags, not yet signed. The engine
/// never holds the member's Nostr key, so the caller turns this into an event and signs it.
public struct KeyPackageDraft: Hashable, Sendable {
    /// base64 of the TLS `KeyPackage`.
    public let content: String
    /// Tags for kind 30443 (with the `d` tag).
    public let tags: [[String]]
    /// Tags for the legacy kind 443 copy (no `d` tag).
    public let legacyTags: [[String]]
    /// The `d` tag value, reused to replace this key package later.
    public let dTag: String
    /// RFC 9420 KeyPackageRef (the `i` tag), hex.
    public let keyPackageRef: String

    public init(content: String, tags: [[String]], legacyTags: [[String]], dTag: String, keyPackageRef: String) {
        self.content = content
        self.tags = tags
        self.legacyTags = legacyTags
        self.dTag = dTag
        self.keyPackageRef = keyPackageRef
    }

    /// The unsigned key-package event of `author` at `createdAt`: kind 30443, or the legacy 443 copy.
    public func unsignedEvent(author: PublicKey, createdAt: UInt64, legacy: Bool = false) -> UnsignedEvent {
        UnsignedEvent(
            pubkey: author,
            createdAt: createdAt,
            kind: legacy ? .keyPackageLegacy : .keyPackage,
            tags: legacy ? legacyTags : tags,
            content: content
        )
    }
}
