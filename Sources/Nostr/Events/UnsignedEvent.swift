import Crypto
import ErrorCodes

extension NostrError.Code {
    public static let rumorIDMismatch = Self("rumor.idMismatch")
}

/// An event before signing; with its id it is also NIP-59's "rumor" (an unsigned event that
/// travels inside a seal, and the form of Marmot's inner application messages).
///
/// NIP-01 canonical serialization (the id preimage):
/// ```
/// [0,<pubkey, lower-case hex>,<created_at, number>,<kind, number>,<tags, arrays of strings>,<content, string>]
/// ```
/// UTF-8, no whitespace; string escaping as in `JSONValue.serialized()` (see the note there).
public struct UnsignedEvent: Hashable, Sendable, Codable {
    public var pubkey: PublicKey
    public var createdAt: UInt64
    public var kind: Kind
    public var tags: [[String]]
    public var content: String

    public init(pubkey: PublicKey, createdAt: UInt64, kind: Kind, tags: [[String]] = [], content: String) {
        self.pubkey = pubkey
        self.createdAt = createdAt
        self.kind = kind
        self.tags = tags
        self.content = content
    }

    /// The NIP-01 id preimage.
    public func canonicalSerialization() -> String {
        var out: [UInt8] = []
        out.append(contentsOf: "[0,\"".utf8)
        out.append(contentsOf: pubkey.hex.utf8)
        out.append(contentsOf: "\",\(createdAt),\(kind.rawValue),".utf8)
        JSONValue.tags(tags).write(into: &out)
        out.append(UInt8(ascii: ","))
        JSONValue.writeString(content, into: &out)
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// SHA-256 of the canonical serialization.
    public var id: EventID {
        EventID(unchecked: Array(SHA256.hash(data: Array(canonicalSerialization().utf8))))
    }

    /// Signs with `keypair`, drawing BIP-340 auxiliary randomness from `generator`.
    /// - Throws: `NostrError` `.invalidPublicKey` when `pubkey` is not `keypair`'s key.
    public func signed(with keypair: Keypair, using generator: inout some RandomNumberGenerator) throws(NostrError) -> Event {
        guard keypair.publicKey == pubkey else {
            throw NostrError(.invalidPublicKey, "event pubkey \(pubkey.hex) is not the signing key \(keypair.publicKey.hex)")
        }
        let id = self.id
        let sig = try Schnorr.sign(message: id.bytes, keypair: keypair, using: &generator)
        return Event(id: id, unsigned: self, sig: sig)
    }

    // MARK: - Rumor JSON

    /// `{"id","pubkey","created_at","kind","tags","content"}`: the unsigned form NIP-59 seals and
    /// Marmot puts inside MLS application messages.
    public func rumorJSON() -> String {
        JSONValue.object(eventMembers(id: id)).serialized()
    }

    /// Parses a rumor; the `id` field is required and must match the content (MDK always sends it).
    /// A `sig` field, if present, is ignored: a rumor is by definition not verifiable.
    public init(rumorJSON: String) throws(NostrError) {
        let value = try JSONValue(parsing: rumorJSON)
        let fields = try EventFields(value)
        let stated = try fields.id()
        self = try fields.unsigned()
        guard stated == id else {
            throw NostrError(.rumorIDMismatch, "rumor id \(stated.hex) does not match its content (\(id.hex))")
        }
    }

    func eventMembers(id: EventID) -> [String: JSONValue] {
        [
            "id": .string(id.hex),
            "pubkey": .string(pubkey.hex),
            "created_at": JSONValue(createdAt),
            "kind": JSONValue(kind.rawValue),
            "tags": .tags(tags),
            "content": .string(content),
        ]
    }
}

extension JSONValue {
    static func tags(_ tags: [[String]]) -> JSONValue {
        .array(tags.map { .array($0.map(JSONValue.string)) })
    }
}
