import ConformanceTestSupport
import HexEncoding
import Testing

@testable import Nostr

// Mirror of vectors/nostr-sdk-0.45.1/nip19.json.
struct RustNostrNIP19File: Decodable {
    struct KeyItem: Decodable, Sendable { let secret_key_hex, nsec, pubkey_hex, npub: String }
    struct NoteItem: Decodable, Sendable { let event_id_hex, note: String }
    let keys: [KeyItem]
    let note: NoteItem

    static func load() throws -> RustNostrNIP19File {
        try Vectors.decode(RustNostrNIP19File.self, from: "nostr-sdk-0.45.1/nip19.json")
    }
}

@Suite struct NIP19Tests {
    @Test(arguments: try Vectors.nonEmpty(RustNostrNIP19File.load().keys, "nostr-sdk-0.45.1/nip19.json: keys"))
    func keysRoundTrip(_ item: RustNostrNIP19File.KeyItem) throws {
        let secret = try SecretKey(hex: item.secret_key_hex)
        #expect(secret.nsec == item.nsec)
        #expect(try SecretKey(nsec: item.nsec) == secret)
        #expect(secret.publicKey.hex == item.pubkey_hex)
        let publicKey = try PublicKey(hex: item.pubkey_hex)
        #expect(publicKey.npub == item.npub)
        #expect(try PublicKey(npub: item.npub) == publicKey)
        #expect(try NIP19.decode(item.npub) == .npub(publicKey))
        #expect(try NIP19.decode(item.nsec) == .nsec(secret))
    }

    @Test func noteRoundTrips() throws {
        let item = try RustNostrNIP19File.load().note
        let id = try EventID(hex: item.event_id_hex)
        #expect(id.note == item.note)
        #expect(try EventID(note: item.note) == id)
        #expect(try NIP19.decode(item.note) == .note(id))
        let nevent = Bech32.encode(hrp: "nevent", payload: id.bytes)
        #expect(throws: NostrError(.nip19WrongPrefix, "")) { try EventID(note: nevent) }
    }

    /// BIP-173 allows an all-upper-case string (QR codes use it); it names the same key.
    @Test func acceptsUpperCase() throws {
        let item = try #require(RustNostrNIP19File.load().keys.first)
        #expect(try PublicKey(npub: item.npub.uppercased()).hex == item.pubkey_hex)
    }

    static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    static func validNpub() throws -> String { try #require(RustNostrNIP19File.load().keys.first).npub }

    /// One malformed string per failure, each with the code it must raise.
    static func malformed() throws -> [(name: String, text: String, code: NostrError.Code)] {
        let npub = try validNpub()
        let chars = Array(npub)
        let lastReplaced = String(chars.dropLast()) + (chars.last == "q" ? "p" : "q")
        let key32 = [UInt8](repeating: 0x11, count: 32)
        func replacingEleventh(with replacement: String) -> String {
            String(chars.prefix(10)) + replacement + String(chars.dropFirst(11))
        }
        // 32 bytes are 256 bits, 52 groups with 4 padding bits; setting one of them breaks the padding.
        var groups = Array(Bech32.encode(hrp: "npub", payload: key32).utf8.dropFirst(5).dropLast(6))
            .map { UInt8(Self.charset.firstIndex(of: $0) ?? 0) }
        groups[groups.count - 1] |= 1
        return [
            ("bad checksum", lastReplaced, .nip19InvalidChecksum),
            ("bech32m checksum", Self.bech32m(npub), .nip19InvalidChecksum),
            ("mixed case", "N" + npub.dropFirst(), .nip19MixedCase),
            ("character outside the charset", replacingEleventh(with: "b"), .nip19InvalidCharacter),
            ("non-ASCII character", replacingEleventh(with: "é"), .nip19InvalidCharacter),
            ("space", replacingEleventh(with: " "), .nip19InvalidCharacter),
            ("missing separator", "npub" + npub.dropFirst(5), .nip19MissingSeparator),
            ("empty human-readable part", String(npub.dropFirst(4)), .nip19MissingSeparator),
            ("too long", npub + String(repeating: "q", count: 91 - npub.count), .nip19TooLong),
            ("data shorter than a checksum", "npub1qqqqq", .nip19InvalidLength),
            ("31-byte payload", Bech32.encode(hrp: "npub", payload: Array(key32.dropLast())), .nip19InvalidLength),
            ("33-byte payload", Bech32.encode(hrp: "npub", payload: key32 + [0]), .nip19InvalidLength),
            ("non-zero padding bits", Bech32.encode(hrp: "npub", fiveBitGroups: groups), .nip19InvalidPadding),
            ("unknown prefix", Bech32.encode(hrp: "nfoo", payload: key32), .nip19UnknownPrefix),
            (
                "zero secret key", Bech32.encode(hrp: "nsec", payload: [UInt8](repeating: 0, count: 32)),
                .invalidSecretKey
            ),
            (
                "x not on the curve", Bech32.encode(hrp: "npub", payload: [UInt8](repeating: 0xFF, count: 32)),
                .invalidPublicKey
            ),
        ]
    }

    /// The same data part under bech32m's checksum constant, which BIP-173 decoders must reject.
    static func bech32m(_ npub: String) -> String {
        // Both checksums are the same polymod residue XORed with a constant (1 for bech32,
        // 0x2bc830a3 for bech32m), so XORing the six checksum groups with 1 ^ 0x2bc830a3 converts one to the other.
        let chars = Array(npub.utf8)
        var out = chars
        let constant: UInt32 = 0x2BC8_30A3 ^ 1
        for i in 0..<6 {
            let position = chars.count - 6 + i
            let value = UInt32(charset.firstIndex(of: chars[position]) ?? 0)
            out[position] = charset[Int(value ^ ((constant >> (5 * (5 - UInt32(i)))) & 31))]
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func malformedStringsRaiseTheirCode() throws {
        for (name, text, code) in try Self.malformed() {
            #expect(throws: NostrError(code, ""), "\(name): \(text)") { try NIP19.decode(text) }
        }
    }

    @Test func wrongPrefixIsReported() throws {
        let item = try #require(RustNostrNIP19File.load().keys.first)
        #expect(throws: NostrError(.nip19WrongPrefix, "")) { try PublicKey(npub: item.nsec) }
        #expect(throws: NostrError(.nip19WrongPrefix, "")) { try SecretKey(nsec: item.npub) }
    }

    @Test func everyProperPrefixIsRejected() throws {
        let npub = try Self.validNpub()
        for prefix in Mutations.properPrefixes(of: Array(npub.utf8)) {
            #expect(throws: NostrError.self, "prefix of length \(prefix.count)") {
                try NIP19.decode(String(decoding: prefix, as: UTF8.self))
            }
        }
    }

    /// bech32 detects any error touching up to four characters, but not every insertion or
    /// deletion, so a mutant may decode: then it must name a key that re-encodes to the mutant.
    @Test func seededMutantsNeverCrashOrLie() throws {
        let npub = try Self.validNpub()
        var generator = TestGenerator(seed: 0x6E70_7562)
        var rejected = 0
        let mutants = Mutations.mutants(of: Array(npub.utf8), count: 2_000, using: &generator)
        for mutant in mutants {
            let text = String(decoding: mutant, as: UTF8.self)
            do {
                let entity = try NIP19.decode(text)
                #expect(NIP19.encode(entity) == text.lowercased(), "mutant \(text) decoded inconsistently")
            } catch {
                rejected += 1
            }
        }
        #expect(rejected > 1_900)
    }
}
