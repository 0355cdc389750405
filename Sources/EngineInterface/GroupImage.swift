// The group image (MIP-01): the picture itself lives encrypted in a blob store (Blossom); the group
// data (extension 0xF2EE) carries only what finds and opens it. Engines encrypt and decrypt; the app
// core uploads and downloads.

/// What the group data says about the group's image.
///
/// ```
/// opaque image_hash<V>;    // 32 bytes: SHA-256 of the encrypted blob (its Blossom address)
/// opaque image_key<V>;     // 32 bytes: in version 2 a seed the encryption key is derived from
/// opaque image_nonce<V>;   // 12 bytes: the ChaCha20-Poly1305 nonce
/// ```
public struct GroupImage: Hashable, Sendable {
    public static let hashLength = 32
    public static let keyLength = 32
    public static let nonceLength = 12

    public let hash: [UInt8]
    public let key: [UInt8]
    public let nonce: [UInt8]

    /// Nil unless every field has its MIP-01 length (a truncated image is no image).
    public init?(hash: [UInt8], key: [UInt8], nonce: [UInt8]) {
        guard hash.count == Self.hashLength, key.count == Self.keyLength, nonce.count == Self.nonceLength else { return nil }
        self.hash = hash
        self.key = key
        self.nonce = nonce
    }

    /// The blob's address in lowercase hex (how a blob store names it).
    public var hashHex: String {
        let digits = Array("0123456789abcdef")
        return String(hash.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }
}

/// An image an engine prepared for upload: the encrypted blob to store and the group-data fields that
/// open it (to commit with `GroupDataChanges.image`).
public struct PreparedGroupImage: Hashable, Sendable {
    public let encrypted: [UInt8]
    public let image: GroupImage

    public init(encrypted: [UInt8], image: GroupImage) {
        self.encrypted = encrypted
        self.image = image
    }
}

// Stored by app cores that persist their state: the three fields as byte arrays; decoding checks
// their MIP-01 lengths as `init?` does.
extension GroupImage: Codable {
    private enum CodingKeys: String, CodingKey { case hash, key, nonce }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard
            let image = GroupImage(
                hash: try container.decode([UInt8].self, forKey: .hash), key: try container.decode([UInt8].self, forKey: .key),
                nonce: try container.decode([UInt8].self, forKey: .nonce))
        else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "image fields of the wrong length"))
        }
        self = image
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hash, forKey: .hash)
        try container.encode(key, forKey: .key)
        try container.encode(nonce, forKey: .nonce)
    }
}
