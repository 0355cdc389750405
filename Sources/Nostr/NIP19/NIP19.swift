// NIP-19 bare entities: bech32 strings for public keys, secret keys and event ids, meant for
// display and copy-paste only (never on the wire).
//
// https://github.com/nostr-protocol/nips/blob/master/19.md

import ErrorCodes

extension NostrError.Code {
    public static let nip19TooLong = Self("nip19.tooLong")
    public static let nip19InvalidCharacter = Self("nip19.invalidCharacter")
    public static let nip19MixedCase = Self("nip19.mixedCase")
    public static let nip19MissingSeparator = Self("nip19.missingSeparator")
    public static let nip19InvalidChecksum = Self("nip19.invalidChecksum")
    /// The 5-bit data does not regroup into whole bytes with zero padding.
    public static let nip19InvalidPadding = Self("nip19.invalidPadding")
    /// The data part is too short for a checksum, or the payload is not 32 bytes.
    public static let nip19InvalidLength = Self("nip19.invalidLength")
    /// The human-readable part is not the one the caller asked for.
    public static let nip19WrongPrefix = Self("nip19.wrongPrefix")
    /// The human-readable part names no entity this implementation knows.
    public static let nip19UnknownPrefix = Self("nip19.unknownPrefix")
}

/// NIP-19 encoding and decoding of bare 32-byte entities.
public enum NIP19 {
    /// A decoded bare NIP-19 entity.
    public enum Entity: Hashable, Sendable {
        case npub(PublicKey)
        case nsec(SecretKey)
        case note(EventID)
    }

    /// The bech32 text of `entity`.
    public static func encode(_ entity: Entity) -> String {
        switch entity {
        case .npub(let key): return Bech32.encode(hrp: "npub", payload: key.bytes)
        case .nsec(let key): return Bech32.encode(hrp: "nsec", payload: key.bytes)
        case .note(let id): return Bech32.encode(hrp: "note", payload: id.bytes)
        }
    }

    /// Decodes any bare entity, dispatching on its prefix.
    /// - Throws: the bech32 codes, `.nip19UnknownPrefix`, `.nip19InvalidLength`, or the key and id
    ///   codes when the 32 bytes are not a valid key.
    public static func decode(_ text: String) throws(NostrError) -> Entity {
        let (hrp, payload) = try Bech32.decode(text)
        switch hrp {
        case "npub": return .npub(try PublicKey(bytes: try thirtyTwo(payload, hrp)))
        case "nsec": return .nsec(try SecretKey(bytes: try thirtyTwo(payload, hrp)))
        case "note": return .note(try EventID(bytes: try thirtyTwo(payload, hrp)))
        default: throw NostrError(.nip19UnknownPrefix, "unknown NIP-19 prefix '\(hrp)'")
        }
    }

    /// The 32-byte payload of a string that must carry `expected` as its prefix.
    static func payload(of text: String, prefix expected: String) throws(NostrError) -> [UInt8] {
        let (hrp, payload) = try Bech32.decode(text)
        guard hrp == expected else {
            throw NostrError(.nip19WrongPrefix, "expected prefix '\(expected)', got '\(hrp)'")
        }
        return try thirtyTwo(payload, hrp)
    }

    private static func thirtyTwo(_ payload: [UInt8], _ hrp: String) throws(NostrError) -> [UInt8] {
        guard payload.count == 32 else {
            throw NostrError(.nip19InvalidLength, "\(hrp) carries 32 bytes, got \(payload.count)")
        }
        return payload
    }
}

extension PublicKey {
    /// The NIP-19 `npub1…` form.
    public var npub: String { NIP19.encode(.npub(self)) }

    /// Parses an `npub1…` string.
    public init(npub: String) throws(NostrError) {
        try self.init(bytes: NIP19.payload(of: npub, prefix: "npub"))
    }
}

extension SecretKey {
    /// The NIP-19 `nsec1…` form.
    public var nsec: String { NIP19.encode(.nsec(self)) }

    /// Parses an `nsec1…` string.
    public init(nsec: String) throws(NostrError) {
        try self.init(bytes: NIP19.payload(of: nsec, prefix: "nsec"))
    }
}

extension EventID {
    /// The NIP-19 `note1…` form.
    public var note: String { NIP19.encode(.note(self)) }

    /// Parses a `note1…` string.
    public init(note: String) throws(NostrError) {
        try self.init(bytes: NIP19.payload(of: note, prefix: "note"))
    }
}
