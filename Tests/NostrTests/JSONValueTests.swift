import ConformanceTestSupport
import Nostr
import Testing

@Suite struct JSONValueTests {
    @Test func parsesEveryValueKind() throws {
        let value = try JSONValue(parsing: #" {"a":[1,-2.5e3,true,false,null,"x\u00e9\ud83e\udeab\n"],"b":{}} "#)
        let a = try #require(value.object?["a"]?.array)
        #expect(a == [.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null, .string("xé\u{1FAAB}\n")])
        #expect(value.object?["b"] == .object([:]))
    }

    static let invalid: [(String, NostrError.Code)] = [
        ("", .jsonSyntax), ("[", .jsonSyntax), ("[1,]", .jsonSyntax), ("{\"a\"}", .jsonSyntax),
        ("01", .jsonTrailingData), ("1.", .jsonSyntax), ("-", .jsonSyntax), ("tru", .jsonSyntax),
        ("[1] x", .jsonTrailingData), ("\"\u{01}\"", .jsonInvalidString), (#""\x""#, .jsonInvalidString),
        (#""\ud800""#, .jsonInvalidString), (#""\udc00""#, .jsonInvalidString), (#""\u12""#, .jsonSyntax),
        (#"{"a":1,"a":2}"#, .jsonDuplicateKey), (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), .jsonTooDeep),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidJSONWithACode(_ text: String, _ code: NostrError.Code) {
        let error = #expect(throws: NostrError.self) { try JSONValue(parsing: text) }
        #expect(error?.code == code)
    }

    @Test func invalidUTF8IsRejected() {
        let error = #expect(throws: NostrError.self) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(error?.code == .jsonInvalidString)
    }

    @Test func serializationRoundTripsAndEscapesControls() throws {
        let value = JSONValue.array([.string("a\"\\\n\u{01}\u{7F}"), .number("12"), .object(["z": .null, "a": .bool(true)])])
        let text = value.serialized()
        #expect(text == #"["a\"\\\n\u0001"# + "\u{7F}" + #"",12,{"a":true,"z":null}]"#)
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test func integerAccessorsRejectNonIntegers() {
        #expect(JSONValue.number("12").uint64 == 12)
        #expect(JSONValue.number("-1").uint64 == nil)
        #expect(JSONValue.number("-1").int64 == -1)
        #expect(JSONValue.number("1.0").int64 == nil)
        #expect(JSONValue.number("18446744073709551616").uint64 == nil)
    }
}
