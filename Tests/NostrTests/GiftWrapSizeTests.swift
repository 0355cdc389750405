import ConformanceTestSupport
import Testing

@testable import Nostr

/// `GiftWrap.sizes` must equal what `GiftWrap.wrap` builds, byte for byte, on both sides of the
/// NIP-44 padding steps and of the 65,535-byte plaintext limit.
struct GiftWrapSizeTests {
    // 42,000 and 60,000 need the extended NIP-44 prefix at the wrap layer (the seal's JSON is
    // above 65,535 bytes); 70,000 needs it at the seal layer too.
    @Test(arguments: [1, 200, 4_096, 20_000, 28_500, 40_500, 42_000, 60_000, 70_000])
    func predictedSizesAreExact(contentBytes: Int) throws {
        let fixture = GiftWrapFixture()
        let rumor = UnsignedEvent(
            pubkey: fixture.sender.publicKey, createdAt: GiftWrapFixture.now, kind: .welcome,
            tags: [["e", String(repeating: "1", count: 64)]],
            content: String(repeating: "Q", count: contentBytes))
        var generator = TestGenerator(seed: 5)
        let wrap = try GiftWrap.wrap(
            rumor: rumor, sender: fixture.sender, recipient: fixture.recipient.publicKey, now: GiftWrapFixture.now, using: &generator)
        let opened = try GiftWrap.unwrap(wrap, recipient: fixture.recipient)
        let sizes = GiftWrap.sizes(rumorJSONBytes: rumor.rumorJSON().utf8.count)
        #expect(sizes.seal == opened.seal.json().utf8.count)
        #expect(sizes.wrap == wrap.json().utf8.count)
        #expect(sizes.fitsNIP44)
    }

    @Test func aRumorNeedingTheExtendedPrefixIsPredicted() throws {
        let fixture = GiftWrapFixture()
        // 42,000 bytes pad to 49,152: the seal's JSON then exceeds 65,535 bytes, so the wrap layer
        // takes NIP-44's extended length prefix (a peer predating it cannot open the wrap).
        let rumor = UnsignedEvent(
            pubkey: fixture.sender.publicKey, createdAt: GiftWrapFixture.now, kind: .welcome, tags: [],
            content: String(repeating: "Q", count: 42_000))
        let sizes = GiftWrap.sizes(rumorJSONBytes: rumor.rumorJSON().utf8.count)
        #expect(sizes.fitsNIP44 && !sizes.fitsCompactNIP44)
        #expect(sizes.seal > 65_535)
        #expect(!sizes.fits(maximumEventBytes: 65_536) && sizes.fits(maximumEventBytes: 131_072))
        // Up to 40,960 bytes, both layers keep the 2-byte prefix.
        #expect(GiftWrap.sizes(rumorJSONBytes: 40_900).fitsCompactNIP44)
        // 28,500 bytes still wrap, but the wrap exceeds a 64 KiB relay's limit.
        let large = GiftWrap.sizes(rumorJSONBytes: 28_900)
        #expect(large.fitsNIP44 && !large.fits(maximumEventBytes: 65_536))
        #expect(GiftWrap.sizes(rumorJSONBytes: 28_000).fits(maximumEventBytes: 65_536))
    }

    @Test func aRumorPastOurNIP44BoundIsRefused() throws {
        let fixture = GiftWrapFixture()
        let rumor = UnsignedEvent(
            pubkey: fixture.sender.publicKey, createdAt: GiftWrapFixture.now, kind: .welcome, tags: [],
            content: String(repeating: "Q", count: NIP44.plaintextLengths.upperBound))
        #expect(!GiftWrap.sizes(rumorJSONBytes: rumor.rumorJSON().utf8.count).fitsNIP44)
        var generator = TestGenerator(seed: 6)
        #expect(throws: NostrError.self) {
            try GiftWrap.wrap(
                rumor: rumor, sender: fixture.sender, recipient: fixture.recipient.publicKey, now: GiftWrapFixture.now, using: &generator)
        }
    }
}
