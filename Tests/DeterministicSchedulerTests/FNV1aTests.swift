import DeterministicScheduler
import Testing

@Suite struct FNV1aTests {
    // Values from the FNV reference test suite (draft-eastlake-fnv).
    @Test(arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func fnv1a64MatchesReference(input: String, expected: String) {
        #expect(String(FNV1a64.hash(Array(input.utf8)), radix: 16) == expected)
    }

    @Test(arguments: [
        ("", "6c62272e07bb014262b821756295c58d"),
        ("a", "d228cb696f1a8caf78912b704e4a8964"),
        ("foobar", "343e1662793c64bf6f0d3597ba446f18"),
    ])
    func fnv1a128MatchesReference(input: String, expected: String) {
        var hasher = FNV1a128()
        hasher.absorb(Array(input.utf8))
        #expect(hasher.hex == expected)
    }

    @Test func fieldBoundariesChangeTheHash() {
        var split1 = FNV1a128()
        split1.absorbField("ab")
        split1.absorbField("c")
        var split2 = FNV1a128()
        split2.absorbField("a")
        split2.absorbField("bc")
        #expect(split1.hex != split2.hex)
    }
}
