import Marmot
import Testing

/// Marmot contents use the project's one strict base64 codec: every spelling that Foundation's
/// lenient decoder would also accept but MDK's Rust decoder refuses is an error here too.
@Suite struct Base64ContentTests {
    @Test func roundTripsEveryLengthModuloThree() throws {
        for length in 0..<7 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 5) }
            #expect(try Base64Content.decode(Base64Content.encode(bytes)) == bytes)
        }
    }

    @Test(arguments: [
        "QR==",  // non-zero trailing bits (Foundation decodes it as "A")
        "QQ",  // missing padding
        "QQ==\n",  // trailing newline
        "Q Q==",  // embedded space
        "QQ===",  // three padding characters
        "QQ-_",  // URL-safe alphabet
    ])
    func refusesNonCanonicalSpellings(_ text: String) {
        #expect(throws: MarmotError(.invalidBase64, "")) { try Base64Content.decode(text) }
    }
}
