import ConformanceTestSupport
import Foundation
import HexEncoding
import Nostr
import Testing

/// vectors/nostr-sdk-0.45.1/events.json: events signed by rust-nostr, valid and tampered.
struct RustNostrEvents: Decodable {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let secret_key_hex: String?
        let event_json: String
        let id: String?
        let valid: Bool
        let why: String?
        var testDescription: String { why ?? id ?? "event" }
    }
    let events: [Case]

    static let file = "nostr-sdk-0.45.1/events.json"

    static func load() throws -> [Case] {
        try Vectors.nonEmpty(Vectors.decode(RustNostrEvents.self, from: file).events, file)
    }
}

@Suite struct EventTests {
    @Test func vectorFileIsPresent() throws {
        #expect(try RustNostrEvents.load().filter(\.valid).count == 10)
        #expect(try RustNostrEvents.load().filter { !$0.valid }.count == 6)
    }

    @Test(arguments: try Vectors.nonEmpty(RustNostrEvents.load().filter(\.valid), "\(RustNostrEvents.file) (valid events)"))
    func rustNostrEventVerifiesAndReserializesToTheSameID(_ vector: RustNostrEvents.Case) throws {
        let event = try Event(json: vector.event_json)
        #expect(event.id.hex == vector.id)
        #expect(event.unsigned.id == event.id)
        // Our own wire JSON must decode back to the identical event.
        #expect(try Event(json: event.json()) == event)
        // And the key in the vector is the signer.
        #expect(try SecretKey(hex: try #require(vector.secret_key_hex)).publicKey == event.pubkey)
    }

    @Test(arguments: try Vectors.nonEmpty(RustNostrEvents.load().filter { !$0.valid }, "\(RustNostrEvents.file) (tampered events)"))
    func tamperedRustNostrEventIsRejectedWithItsReason(_ vector: RustNostrEvents.Case) throws {
        let expected: NostrError.Code = vector.why == "zero signature" ? .eventBadSignature : .eventIDMismatch
        let error = #expect(throws: NostrError.self) { try Event(json: vector.event_json) }
        #expect(error?.code == expected)
    }

    @Test func canonicalSerializationFollowsNIP01() throws {
        let key = try SecretKey(hex: "0000000000000000000000000000000000000000000000000000000000000003").publicKey
        let event = UnsignedEvent(
            pubkey: key, createdAt: 1_700_000_000, kind: 1, tags: [["e", "x"], ["t"]],
            content: "q\" b\\ n\n r\r t\t b\u{08} f\u{0C} c\u{01} del\u{7F} é ✓ /")
        #expect(
            event.canonicalSerialization()
                == "[0,\"\(key.hex)\",1700000000,1,[[\"e\",\"x\"],[\"t\"]],"
                + "\"q\\\" b\\\\ n\\n r\\r t\\t b\\b f\\f c\\u0001 del\u{7F} é ✓ /\"]")
    }

    @Test func signingIsDeterministicForASeed() throws {
        func make(seed: UInt64) throws -> Event {
            var generator = TestGenerator(seed: seed)
            let keypair = Keypair.generate(using: &generator)
            let unsigned = UnsignedEvent(
                pubkey: keypair.publicKey, createdAt: 1_700_000_000, kind: .chatMessage, content: "hi")
            return try unsigned.signed(with: keypair, using: &generator)
        }
        let a = try make(seed: 42)
        let b = try make(seed: 42)
        let c = try make(seed: 43)
        #expect(a.json() == b.json())
        #expect(a.sig != c.sig)
        try a.verify()
    }

    @Test func signingWithTheWrongKeyIsRefused() throws {
        var generator = TestGenerator(seed: 1)
        let alice = Keypair.generate(using: &generator)
        let bob = Keypair.generate(using: &generator)
        let unsigned = UnsignedEvent(pubkey: alice.publicKey, createdAt: 1, kind: 1, content: "")
        #expect(throws: NostrError(.invalidPublicKey, "")) { try unsigned.signed(with: bob, using: &generator) }
    }

    @Test func unknownFieldsAreIgnoredAndNotReemitted() throws {
        let original = try #require(RustNostrEvents.load().first)
        var object = try #require(try JSONValue(parsing: original.event_json).object)
        object["extra"] = .string("should vanish")
        let event = try Event(jsonValue: .object(object))
        let reencoded = try JSONValue(parsing: event.json())
        #expect(reencoded.object?["extra"] == nil)
        #expect(reencoded.object?.count == 7)
    }

    static let malformed: [(String, NostrError.Code)] = [
        ("[]", .eventNotObject),
        ("{}", .eventMissingField),
        (#"{"id":1}"#, .eventWrongType),
        (#"{"id":"ab"}"#, .invalidEventID),
        ("not json", .jsonSyntax),
        (#"{"id":"x","id":"y"}"#, .jsonDuplicateKey),
    ]

    @Test(arguments: malformed)
    func malformedEventJSONIsRejectedWithAReason(_ input: String, _ code: NostrError.Code) {
        let error = #expect(throws: NostrError.self) { try Event(json: input) }
        #expect(error?.code == code)
    }

    /// Replaces one field of a valid event and expects the decoder to name it.
    static let fieldFaults: [(String, JSONValue, NostrError.Code)] = [
        ("id", .string(String(repeating: "A", count: 64)), .invalidEventID),
        ("pubkey", .string(String(repeating: "0", count: 64)), .eventInvalidPubkey),
        ("pubkey", .string("abc"), .eventInvalidPubkey),
        ("sig", .string("00"), .eventInvalidSignatureEncoding),
        ("kind", .number("65536"), .eventInvalidKind),
        ("kind", .number("1.0"), .eventInvalidKind),
        ("kind", .string("1"), .eventInvalidKind),
        ("created_at", .number("-1"), .eventInvalidCreatedAt),
        ("created_at", .number("1e9"), .eventInvalidCreatedAt),
        ("tags", .object([:]), .eventInvalidTags),
        ("tags", .array([.string("p")]), .eventInvalidTags),
        ("tags", .array([.array([.number("1")])]), .eventInvalidTags),
        ("content", .null, .eventWrongType),
    ]

    @Test(arguments: fieldFaults)
    func eachMalformedFieldHasItsOwnCode(_ field: String, _ value: JSONValue, _ code: NostrError.Code) throws {
        let first = try #require(RustNostrEvents.load().first)
        var object = try #require(try JSONValue(parsing: first.event_json).object)
        object[field] = value
        let error = #expect(throws: NostrError.self) { try Event(jsonValue: .object(object)) }
        #expect(error?.code == code)
    }

    @Test func rumorJSONRoundTripsAndChecksItsID() throws {
        var generator = TestGenerator(seed: 3)
        let keypair = Keypair.generate(using: &generator)
        let rumor = UnsignedEvent(
            pubkey: keypair.publicKey, createdAt: 5, kind: .chatMessage, tags: [["e", "x"]], content: "hello")
        #expect(try UnsignedEvent(rumorJSON: rumor.rumorJSON()) == rumor)
        let forged = rumor.rumorJSON().replacingOccurrences(of: "hello", with: "bye")
        let error = #expect(throws: NostrError.self) { try UnsignedEvent(rumorJSON: forged) }
        #expect(error?.code == .rumorIDMismatch)
    }

    @Test func kindClassesFollowNIP01() {
        #expect(Kind.groupEvent.isRegular && Kind.welcome.isRegular && Kind.keyPackageLegacy.isRegular)
        #expect(Kind.giftWrap.isRegular)
        #expect(Kind.metadata.isReplaceable && Kind.inboxRelays.isReplaceable && Kind(rawValue: 3).isReplaceable)
        #expect(Kind.keyPackage.isAddressable && !Kind.keyPackage.isRegular)
        #expect(Kind.auth.isEphemeral)
    }
}
