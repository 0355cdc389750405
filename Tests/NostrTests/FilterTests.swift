import ConformanceTestSupport
import Nostr
import Testing

@Suite struct FilterTests {
    private static let hexA = String(repeating: "a", count: 64)
    private static let hexB = String(repeating: "b", count: 64)

    private func event(kind: Kind = 1, createdAt: UInt64 = 100, tags: [[String]] = [], seed: UInt64 = 1) throws -> Event {
        var generator = TestGenerator(seed: seed)
        let keypair = Keypair.generate(using: &generator)
        return try UnsignedEvent(pubkey: keypair.publicKey, createdAt: createdAt, kind: kind, tags: tags, content: "x")
            .signed(with: keypair, using: &generator)
    }

    @Test func decodesEveryNIP01FieldAndRoundTrips() throws {
        let text =
            ##"{"authors":["\##(Self.hexA)"],"ids":["\##(Self.hexB)"],"kinds":[1,445],"#h":["g"],"#p":["\##(Self.hexA)"],"since":10,"until":20,"limit":5}"##
        let filter = try Filter(json: text)
        #expect(filter.ids == [Self.hexB])
        #expect(filter.authors == [Self.hexA])
        #expect(filter.kinds == [1, 445])
        #expect(filter.tags == ["h": ["g"], "p": [Self.hexA]])
        #expect(filter.since == 10 && filter.until == 20 && filter.limit == 5)
        #expect(try Filter(json: filter.json()) == filter)
    }

    @Test func unknownKeysAreIgnoredForForwardCompatibility() throws {
        #expect(try Filter(json: ##"{"search":"x","kinds":[1]}"##) == Filter(kinds: [1]))
    }

    // NIP-01 (R10): ids, authors, #e and #p are exact 64-char lower-case hex; no prefixes.
    @Test(arguments: [
        (##"[]"##, NostrError.Code.filterNotObject),
        (##"{"ids":["abcd"]}"##, .filterBadHex),
        (##"{"authors":["\##(String(repeating: "A", count: 64))"]}"##, .filterBadHex),
        (##"{"#e":["xyz"]}"##, .filterBadHex),
        (##"{"#p":["\##(String(repeating: "a", count: 65))"]}"##, .filterBadHex),
        (##"{"ids":"\##(String(repeating: "a", count: 64))"}"##, .filterBadList),
        (##"{"#h":[1]}"##, .filterBadList),
        (##"{"kinds":["445"]}"##, .filterBadKind),
        (##"{"kinds":[65536]}"##, .filterBadKind),
        (##"{"kinds":[-1]}"##, .filterBadKind),
        (##"{"kinds":[1.5]}"##, .filterBadKind),
        (##"{"since":"10"}"##, .filterBadTimestamp),
        (##"{"until":-5}"##, .filterBadTimestamp),
        (##"{"limit":-1}"##, .filterBadLimit),
        (##"{"limit":true}"##, .filterBadLimit),
        (##"{"#hh":["x"]}"##, .filterBadTagName),
        (##"{"#":["x"]}"##, .filterBadTagName),
        (##"{"#1":["x"]}"##, .filterBadTagName),
    ])
    func rejectsMalformedFieldsWithTypedCodes(json: String, code: NostrError.Code) {
        let error = #expect(throws: NostrError.self) { try Filter(json: json) }
        #expect(error?.code == code)
    }

    // NIP-01 (R9): all conditions of a filter must hold; any value of a list may match.
    @Test func conditionsAreANDedAndListValuesORed() throws {
        let note = try event(kind: 1, tags: [["t", "x"]])
        #expect(Filter(kinds: [1, 7]).matches(note))
        #expect(Filter(authors: [note.pubkey.hex], kinds: [1]).matches(note))
        #expect(!Filter(authors: [note.pubkey.hex], kinds: [2]).matches(note))
        #expect(Filter(ids: [Self.hexA, note.id.hex]).matches(note))
        #expect(!Filter(ids: [Self.hexA]).matches(note))
        #expect(!Filter(kinds: [1], tags: ["t": ["y"]]).matches(note))
        #expect(Filter().matches(note))
    }

    // NIP-01 (R9): since <= created_at <= until, both inclusive.
    @Test func sinceAndUntilAreInclusive() throws {
        let note = try event(createdAt: 100)
        #expect(Filter(since: 100, until: 100).matches(note))
        #expect(!Filter(since: 101).matches(note))
        #expect(!Filter(until: 99).matches(note))
    }

    // NIP-01 (R10): "Only the first value in any given tag is indexed"; names are case-sensitive.
    @Test func tagFiltersMatchOnlyTheFirstValueAndAreCaseSensitive() throws {
        let message = try event(kind: 445, tags: [["h", "g3", "g5"], ["p", Self.hexA]])
        #expect(Filter(tags: ["h": ["g3"]]).matches(message))
        #expect(!Filter(tags: ["h": ["g5"]]).matches(message))
        #expect(!Filter(tags: ["H": ["g3"]]).matches(message))
        #expect(Filter(tags: ["h": ["g3"], "p": [Self.hexA]]).matches(message))
        #expect(!Filter(tags: ["h": ["g3"], "p": [Self.hexB]]).matches(message))
        // A tag with a name but no value is never matched.
        #expect(!Filter(tags: ["t": [""]]).matches(try event(tags: [["t"]])))
    }

    @Test func anEmptyListMatchesNothing() throws {
        let note = try event()
        #expect(!Filter(kinds: []).matches(note))
        #expect(!Filter(tags: ["h": []]).matches(try event(tags: [["h", "g"]])))
    }

    @Test func limitPlaysNoPartInMatching() throws {
        #expect(Filter(limit: 0).matches(try event()))
    }

    @Test func hostileFilterTextNeverTraps() {
        var generator = TestGenerator(seed: 77)
        let seed = Array(##"{"ids":["\##(Self.hexA)"],"kinds":[1],"#h":["g"],"since":1,"limit":2}"##.utf8)
        for mutant in Mutations.mutants(of: seed, count: 2_000, using: &generator) {
            // Either outcome is fine; a trap would end the test run.
            _ = try? Filter(json: String(decoding: mutant, as: UTF8.self))
        }
    }
}
