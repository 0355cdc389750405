import ConformanceTestSupport
@testable import Nostr
import Testing

/// `GiftWrap.sizes` must equal what `GiftWrap.wrap` builds, byte for byte, on both sides of the
/// NIP-44 padding steps and of the 65,535-byte plaintext limit.
struct GiftWrapSizeTests {
    @Test(arguments: [1, 200, 4_096, 20_000, 28_500, 40_500]) func predictedSizesAreExact(contentBytes: Int) throws {
        let fixture = GiftWrapFixture()
        let rumor = UnsignedEvent(
            pubkey: fixture.sender.publicKey, createdAt: GiftWrapFixture.now, kind: .welcome, tags: [["e", String(repeating: "1", count: 64)]],
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

    @Test func aRumorTooLargeForTheWrapLayerIsPredicted() throws {
        let fixture = GiftWrapFixture()
        // 42,000 bytes pad to 49,152: the seal's JSON then exceeds NIP-44's 65,535 bytes.
        let rumor = UnsignedEvent(
            pubkey: fixture.sender.publicKey, createdAt: GiftWrapFixture.now, kind: .welcome, tags: [],
            content: String(repeating: "Q", count: 42_000))
        let sizes = GiftWrap.sizes(rumorJSONBytes: rumor.rumorJSON().utf8.count)
        #expect(!sizes.fitsNIP44)
        #expect(sizes.seal > 65_535)
        var generator = TestGenerator(seed: 6)
        #expect(throws: NostrError.self) {
            try GiftWrap.wrap(
                rumor: rumor, sender: fixture.sender, recipient: fixture.recipient.publicKey, now: GiftWrapFixture.now, using: &generator)
        }
        // 28,500 bytes still wrap, but the wrap exceeds a 64 KiB relay's limit.
        let large = GiftWrap.sizes(rumorJSONBytes: 28_900)
        #expect(large.fitsNIP44 && !large.fits(maximumEventBytes: 65_536))
        #expect(GiftWrap.sizes(rumorJSONBytes: 28_000).fits(maximumEventBytes: 65_536))
    }
}
