// How big each layer of a NIP-59 gift wrap will be, computed without wrapping (no randomness drawn,
// no keys needed), so that a sender can tell beforehand whether a rumor can travel at all:
//
//   rumor JSON  --NIP-44-->  seal JSON  --NIP-44-->  wrap JSON (what a relay stores)
//
// Each layer grows the text by the padding (up to 1/8 above 32 KiB) and base64 (4/3), so a rumor
// above ~28 KiB makes a wrap larger than the 64 KiB many relays accept. NIP-44 v2 took plaintexts
// of at most 65,535 bytes until nips PR #1907 (a 6-byte length prefix above that): a rumor above
// ~40 KiB then needs the extended prefix at the wrap layer, which peers without it cannot open.

extension GiftWrap {
    /// Byte sizes of the layers of a gift wrap.
    public struct Sizes: Hashable, Sendable {
        /// The rumor's JSON: the seal's NIP-44 plaintext.
        public let rumor: Int
        /// The seal's JSON: the wrap's NIP-44 plaintext.
        public let seal: Int
        /// The wrap's JSON, as a relay measures the event.
        public let wrap: Int

        /// Whether both NIP-44 layers can be encrypted (each plaintext within `NIP44.plaintextLengths`).
        public var fitsNIP44: Bool { NIP44.plaintextLengths.contains(rumor) && NIP44.plaintextLengths.contains(seal) }
        /// Whether both layers keep the 2-byte length prefix (each plaintext within 65,535 bytes), so
        /// that a peer predating the extended prefix can open the wrap too.
        public var fitsCompactNIP44: Bool {
            NIP44.compactPlaintextLengths.contains(rumor) && NIP44.compactPlaintextLengths.contains(seal)
        }

        /// Whether the wrap can be built and a relay accepting events of up to `maximumEventBytes` stores it.
        public func fits(maximumEventBytes: Int) -> Bool { fitsNIP44 && wrap <= maximumEventBytes }
    }

    /// The sizes of the layers wrapping a rumor whose JSON has `rumorJSONBytes` bytes, for
    /// timestamps of ten digits (2001…2286), as `wrap(rumor:…)` builds them.
    public static func sizes(rumorJSONBytes: Int) -> Sizes {
        let seal = layerJSONBytes(kind: .seal, tags: [], plaintextBytes: rumorJSONBytes)
        let wrap = layerJSONBytes(kind: .giftWrap, tags: [["p", String(repeating: "0", count: 64)]], plaintextBytes: seal)
        return Sizes(rumor: rumorJSONBytes, seal: seal, wrap: wrap)
    }

    /// A signed event of `kind` whose content is the NIP-44 payload of `plaintextBytes` bytes: the
    /// JSON is laid out by the same serializer with placeholders of the real fields' lengths.
    private static func layerJSONBytes(kind: Kind, tags: [[String]], plaintextBytes: Int) -> Int {
        let hex64 = String(repeating: "0", count: 64)
        let members: [String: JSONValue] = [
            "id": .string(hex64), "pubkey": .string(hex64), "sig": .string(hex64 + hex64),
            "created_at": JSONValue(UInt64(1_000_000_000)), "kind": JSONValue(kind.rawValue), "tags": .tags(tags),
            "content": .string(""),
        ]
        return JSONValue.object(members).serialized().utf8.count + payloadBase64Bytes(plaintextBytes: plaintextBytes)
    }

    /// NIP-44 v2 payload (version 1, nonce 32, length prefix 2 or 6 + padded plaintext, MAC 32) in
    /// base64 with padding.
    static func payloadBase64Bytes(plaintextBytes: Int) -> Int {
        let length = max(plaintextBytes, 1)
        let payload = 1 + 32 + NIP44.Padding.prefixLength(length) + NIP44.Padding.paddedLength(length) + 32
        return (payload + 2) / 3 * 4
    }
}
