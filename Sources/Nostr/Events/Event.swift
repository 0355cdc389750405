import ErrorCodes
import HexEncoding

extension NostrError.Code {
    public static let eventNotObject = Self("event.notObject")
    public static let eventMissingField = Self("event.missingField")
    public static let eventWrongType = Self("event.wrongType")
    public static let eventInvalidPubkey = Self("event.invalidPubkey")
    public static let eventInvalidSignatureEncoding = Self("event.invalidSignatureEncoding")
    public static let eventInvalidKind = Self("event.invalidKind")
    public static let eventInvalidCreatedAt = Self("event.invalidCreatedAt")
    public static let eventInvalidTags = Self("event.invalidTags")
    public static let eventIDMismatch = Self("event.idMismatch")
    public static let eventBadSignature = Self("event.badSignature")
}

/// A signed Nostr event (NIP-01).
///
/// ```
/// {
///   "id": <32-bytes lowercase hex-encoded sha256 of the serialized event data>,
///   "pubkey": <32-bytes lowercase hex-encoded public key of the event creator>,
///   "created_at": <unix timestamp in seconds>,
///   "kind": <integer between 0 and 65535>,
///   "tags": [ [<arbitrary string>...], ... ],
///   "content": <arbitrary string>,
///   "sig": <64-bytes lowercase hex of the signature of the sha256 hash of the serialized event data>
/// }
/// ```
/// Decoding from JSON verifies the id and the signature; fields other than these seven are ignored
/// and never re-emitted.
public struct Event: Hashable, Sendable {
    public let id: EventID
    public let pubkey: PublicKey
    public let createdAt: UInt64
    public let kind: Kind
    public let tags: [[String]]
    public let content: String
    public let sig: [UInt8]

    init(id: EventID, unsigned: UnsignedEvent, sig: [UInt8]) {
        self.id = id
        pubkey = unsigned.pubkey
        createdAt = unsigned.createdAt
        kind = unsigned.kind
        tags = unsigned.tags
        content = unsigned.content
        self.sig = sig
    }

    /// Parses event JSON and verifies its id and signature.
    /// - Throws: `NostrError` naming the first problem: a `json.*` code for bad JSON, an `event.*`
    ///   code for a missing or malformed field, `.eventIDMismatch` or `.eventBadSignature`.
    public init(json: String) throws(NostrError) {
        try self.init(jsonValue: JSONValue(parsing: json))
    }

    /// Decodes and verifies an event from a parsed JSON value (as found inside relay frames).
    public init(jsonValue: JSONValue) throws(NostrError) {
        self = try Event.decodeUnverified(jsonValue)
        try verify()
    }

    /// Decodes the shape of an event without checking its id or signature, for callers that must
    /// report those failures separately (a relay answers them with `OK false "invalid: …"`).
    public static func decodeUnverified(_ value: JSONValue) throws(NostrError) -> Event {
        let fields = try EventFields(value)
        let id = try fields.id()
        let unsigned = try fields.unsigned()
        let sig = try fields.signature()
        return Event(id: id, unsigned: unsigned, sig: sig)
    }

    /// Checks that `id` is the hash of the content and `sig` a valid BIP-340 signature of it.
    public func verify() throws(NostrError) {
        let computed = unsigned.id
        guard computed == id else {
            throw NostrError(.eventIDMismatch, "id \(id.hex) does not match the serialized event (\(computed.hex))")
        }
        guard Schnorr.verify(signature: sig, message: id.bytes, publicKey: pubkey) else {
            throw NostrError(.eventBadSignature, "signature does not verify for pubkey \(pubkey.hex)")
        }
    }

    /// The event without its signature.
    public var unsigned: UnsignedEvent {
        UnsignedEvent(pubkey: pubkey, createdAt: createdAt, kind: kind, tags: tags, content: content)
    }

    public var jsonValue: JSONValue {
        var members = unsigned.eventMembers(id: id)
        members["sig"] = .string(sig.hexString)
        return .object(members)
    }

    /// Wire JSON (valid RFC 8259, keys sorted).
    public func json() -> String { jsonValue.serialized() }

    /// The second element of the first tag named `name` (NIP-01 indexes only this value).
    public func firstTagValue(_ name: String) -> String? {
        tags.first { $0.first == name && $0.count > 1 }?[1]
    }
}

/// Field-by-field decoding shared by signed events and rumors, so both report the same codes.
struct EventFields {
    let members: [String: JSONValue]

    init(_ value: JSONValue) throws(NostrError) {
        guard let members = value.object else {
            throw NostrError(.eventNotObject, "an event must be a JSON object, got \(value.typeName)")
        }
        self.members = members
    }

    func field(_ name: String) throws(NostrError) -> JSONValue {
        guard let value = members[name] else { throw NostrError(.eventMissingField, "missing field \"\(name)\"") }
        return value
    }

    func string(_ name: String) throws(NostrError) -> String {
        let value = try field(name)
        guard let s = value.string else {
            throw NostrError(.eventWrongType, "field \"\(name)\" must be a string, got \(value.typeName)")
        }
        return s
    }

    func id() throws(NostrError) -> EventID {
        try EventID(hex: string("id"))
    }

    func signature() throws(NostrError) -> [UInt8] {
        try decodeHex(string("sig"), length: 64, code: .eventInvalidSignatureEncoding)
    }

    func unsigned() throws(NostrError) -> UnsignedEvent {
        let pubkeyHex = try string("pubkey")
        let pubkey: PublicKey
        do { pubkey = try PublicKey(hex: pubkeyHex) } catch { throw NostrError(.eventInvalidPubkey, error.reason) }

        let createdValue = try field("created_at")
        guard case .number = createdValue, let createdAt = createdValue.uint64 else {
            throw NostrError(.eventInvalidCreatedAt, "created_at must be a non-negative integer, got \(createdValue.serialized())")
        }
        let kindValue = try field("kind")
        guard case .number = kindValue, let rawKind = kindValue.uint64, rawKind <= UInt64(UInt16.max) else {
            throw NostrError(.eventInvalidKind, "kind must be an integer in 0...65535, got \(kindValue.serialized())")
        }
        let tagsValue = try field("tags")
        guard let tagArray = tagsValue.array else {
            throw NostrError(.eventInvalidTags, "tags must be an array, got \(tagsValue.typeName)")
        }
        var tags: [[String]] = []
        tags.reserveCapacity(tagArray.count)
        for (i, tag) in tagArray.enumerated() {
            guard let items = tag.array else { throw NostrError(.eventInvalidTags, "tag \(i) is not an array") }
            var strings: [String] = []
            for (j, item) in items.enumerated() {
                guard let s = item.string else {
                    throw NostrError(.eventInvalidTags, "tag \(i) item \(j) is \(item.typeName), not a string")
                }
                strings.append(s)
            }
            tags.append(strings)
        }
        let content = try string("content")
        return UnsignedEvent(pubkey: pubkey, createdAt: createdAt, kind: Kind(rawValue: UInt16(rawKind)), tags: tags, content: content)
    }
}
